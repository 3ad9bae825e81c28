"""A Chinese negation before a 把 phrase negates the verb after it; one inside the phrase does not."""

import pytest

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
