"""What a negation negates: a Chinese negation before a 把 phrase negates the verb after it, one inside
the phrase does not; "do not" negates, an emphatic "do" does not."""

import pytest

from wirelab.offline_model.meaning import negates
from wirelab.offline_model.selection import asks_for_nothing


@pytest.mark.parametrize(
    "text",
    [
        "别把这张照片发给老王",  # 别 … 发给: don't send it
        "不要把这份报告删除",  # 不要 … 删除
        "千万不要把会议取消",
    ],
)
def test_a_negation_before_the_fronted_object_asks_for_nothing(text: str) -> None:
    assert asks_for_nothing(text)


@pytest.mark.parametrize(
    "text",
    [
        "把不要的文件删除",  # 不要的: "unwanted", inside the object
        "把这张照片发给老王",
        "帮我把报告翻译成英文",  # 翻译成: the verb kept with its result by jieba
    ],
)
def test_a_request_with_a_fronted_object_still_asks(text: str) -> None:
    assert not asks_for_nothing(text)


@pytest.mark.parametrize(
    "text",
    [
        "Do book a table for two at eight",  # an emphatic "do" asks all the more
        "Please do water the ferns tonight",
        "I do want the blue kettle ordered",
    ],
)
def test_an_emphatic_do_is_no_negation(text: str) -> None:
    assert not asks_for_nothing(text)
    assert not negates(text)


@pytest.mark.parametrize("text", ["Do not book a table", "Don't order the kettle", "Please do not order it"])
def test_do_not_still_negates(text: str) -> None:
    assert asks_for_nothing(text)
    assert negates(text)


@pytest.mark.parametrize("text", ["先不要放视频", "不要放动画片了"])
def test_a_negated_put_on_asks_for_nothing(text: str) -> None:
    assert asks_for_nothing(text)  # 放 (put on, play) is an action the negation can negate


@pytest.mark.parametrize(
    "text",
    [
        "Don't repaint the shed this weekend",  # "repaint" is in no list of actions: it is the word after
        "Never reboot the router at night",
        "Please don't mute it, I love this chorus",  # the opinion after it asks for nothing either
        "别重启那台打印机",
    ],
)
def test_a_message_that_opens_with_a_negated_command_asks_for_nothing(text: str) -> None:
    assert asks_for_nothing(text)


@pytest.mark.parametrize(
    "text",
    [
        "Don't worry about the cost, just book the painter",  # the last command is not negated
        "I never got parcel 4471, where is it?",  # a statement about the past, then a question
        "Cancel the order, I hate the colour",  # an opinion after a command leaves it asked
    ],
)
def test_a_later_command_or_a_statement_still_asks(text: str) -> None:
    assert not asks_for_nothing(text)


@pytest.mark.parametrize(
    "text",
    ["Please don't email Omar yet, I'll tell him myself.", "Don't book the cab, we'll call one later."],
)
def test_what_the_speaker_will_do_is_not_what_they_ask(text: str) -> None:
    assert asks_for_nothing(text)


@pytest.mark.parametrize("text", ["Can I book a cab for 6?", "I'll need a cab at 6, book one please"])
def test_a_request_with_the_speaker_in_it_still_asks(text: str) -> None:
    assert not asks_for_nothing(text)
