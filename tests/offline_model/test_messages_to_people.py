"""A request that tells a person something ("Text Ana that …", "let the crew know …", 跟爸爸说…) asks to
send them a message: it names sending (`names.addressed`, `selection.request_concepts`), the person
is the recipient, never the verb before them ("Ana", not "Text Ana"; 小周, not 周), even for a
parameter that takes a number or a name (`number_or_contact`); the medium it names (a text, an email, 微信)
picks among several tools that send. Tools and requests invented here."""

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.binding import bind
from wirelab.offline_model.free_text import told_span
from wirelab.offline_model.names import addressed
from wirelab.offline_model.normalize import clean, segment
from wirelab.offline_model.policy import heard
from wirelab.offline_model.selection import asks_for_nothing, plan

TEXTER = model_tool(
    "texter_send",
    "Send a short text to someone.",
    {
        "number_or_contact": {"type": "string", "description": "Their number or contact name"},
        "words": {"type": "string", "description": "What the text says"},
    },
    ("number_or_contact", "words"),
)
PAGER = model_tool(
    "pager_send",
    "Send a message to a crew member's pager.",
    {"member": {"type": "string", "description": "Crew member"}, "message": {"type": "string"}},
    ("member", "message"),
)
KETTLE = model_tool("boil_kettle", "Boil the kettle.", {"litres": {"type": "number"}}, ("litres",))


def _told(text: str) -> list[str]:
    return [text[a:b] for a, b in addressed(segment(clean(text)))]


def test_the_person_after_a_telling_verb_is_told():
    assert _told("Text Ana that the door is open") == ["Ana"]
    assert _told("let the crew know we land at nine") == ["crew"]
    assert _told("跟爸爸说我坐错车了") == ["爸爸"]
    assert _told("给老周发个消息说门没锁") == ["老周"]


def test_no_one_is_told_when_the_speaker_is():
    assert _told("Tell me a riddle") == []
    assert _told("Let me know when it boils") == []
    assert _told("告诉我现在几点") == []


def test_no_one_is_asked_to_tell_when_the_speaker_will():
    assert _told("I'll tell Ana myself") == []
    assert _told("I will let the crew know") == []
    assert _told("我自己跟爸爸说") == []
    text = "I'll tell Ravi myself."
    assert heard(plan(text, (PAGER,)), text, (PAGER,)) == []


def test_a_message_for_a_person_names_sending():
    tools = (PAGER, KETTLE)
    assert [item.tool.name for item in plan("Tell Ravi the van is parked out back", tools)] == ["pager_send"]


def test_a_lone_tool_keeps_a_chatty_message_for_a_person():
    text = "Tell Ravi happy anniversary"
    assert [item.tool.name for item in heard(plan(text, (PAGER,)), text, (PAGER,))] == ["pager_send"]


def test_the_recipient_is_the_person_not_the_verb():
    assert bind(TEXTER, "Text Ana that the door is open")["number_or_contact"] == "Ana"
    assert bind(TEXTER, "Text Dad I'm on the bus")["number_or_contact"] == "Dad"


def test_a_chinese_recipient_is_whole():
    assert bind(PAGER, "告诉小周明天早点来")["member"] == "小周"
    assert bind(PAGER, "给老周发个消息说车修好了")["member"] == "老周"


MAILER = model_tool(
    "mailer_send", "Send an email.", {"to": {"type": "string"}, "body": {"type": "string"}}, ("to",)
)
CHATROOM = model_tool(
    "chatroom_post",
    "Post a message in a chat room.",
    {"room": {"type": "string"}, "words": {"type": "string"}},
)
WEIXIN = model_tool(
    "weixin_push", "通过微信发消息。", {"friend": {"type": "string"}, "words": {"type": "string"}}
)


def test_the_medium_named_picks_the_tool():
    tools = (MAILER, CHATROOM, TEXTER, WEIXIN)
    assert [item.tool.name for item in plan("Text Ana that the door is open", tools)] == ["texter_send"]
    assert [item.tool.name for item in plan("Email Ana that the door is open", tools)] == ["mailer_send"]
    assert [item.tool.name for item in plan("发微信给小周：门没锁", tools)] == ["weixin_push"]
    assert [item.tool.name for item in plan("发短信给小周，说门没锁", tools)] == ["texter_send"]


SIREN = model_tool(
    "sound_siren",
    "Page an on-call squad.",
    {
        "squad": {"type": "string", "description": "Squad"},
        "message": {"type": "string", "description": "What to tell them"},
    },
    ("squad", "message"),
)
LETTER = model_tool(
    "post_letter",
    "Send an email message.",
    {"to": {"type": "string", "description": "Recipient"}, "body": {"type": "string"}},
    ("to", "body"),
)


def test_a_group_named_after_the_is_told_when_what_is_said_follows():
    assert _told("Email the porter that the van is here") == ["porter"]
    assert _told("Page the kitchen squad: the oven is on fire") == ["kitchen squad"]
    assert _told("Alert the late shift saying the gate is stuck") == ["late shift"]
    assert _told("let the sales team know we land at nine") == ["sales team"]


def test_a_thing_after_the_is_no_one_told():
    assert _told("Email the invoice to Ana") == []
    assert _told("Page the manual for the oven") == []
    assert _told("Tell the time in Oslo") == []


def test_the_group_told_fills_the_recipient_not_a_word_of_the_message():
    got = bind(SIREN, "Page the kitchen squad that the oven is hot")
    assert got == {"squad": "kitchen", "message": "the oven is hot"}  # the parameter's word names no one
    assert bind(SIREN, "Alert the late shift: the gate is stuck")["squad"] == "late shift"


def test_a_name_told_is_a_person_not_a_country():
    assert bind(LETTER, "Email Chad that the van is here") == {"to": "Chad", "body": "the van is here"}


def test_the_telling_verb_is_no_part_of_what_is_said():
    assert bind(PAGER, "Text Ravi the van is parked out back") == {
        "member": "Ravi",
        "message": "the van is parked out back",
    }
    assert bind(PAGER, "Email Ravi: the van is parked")["message"] == "the van is parked"


def test_what_the_speaker_says_after_the_person_told_is_said_whole():
    # no "that" nor "saying": the message starts at the speaker's own word after the person
    assert bind(LETTER, "Email Wendell I'm stuck at the depot")["body"] == "I'm stuck at the depot"
    assert bind(PAGER, "Text Ravi we'll be at the back gate")["message"] == "we'll be at the back gate"
    assert (
        bind(PAGER, "Text Ravi I'll bring the ladder, and book a van")["message"] == "I'll bring the ladder"
    )


def test_what_follows_the_word_the_telling_verb_needs_is_said_whole():
    # "let … know", "remind … to", "Message …:": what is said starts after that word, the speaker's own too
    assert bind(PAGER, "Let Ravi know I need the ladder tonight")["message"] == "I need the ladder tonight"
    assert (
        bind(PAGER, "Let Ravi know I can't make it to the depot")["message"] == "I can't make it to the depot"
    )
    assert bind(PAGER, "Page Ravi: the van is parked out back")["message"] == "the van is parked out back"


NUDGE = model_tool(
    "nudge_person",
    "Nudge someone about a chore.",
    {"person": {"type": "string"}, "task": {"type": "string", "description": "The chore"}},
    ("person", "task"),
)


def test_what_a_person_is_reminded_to_do_is_the_task_whole():
    assert bind(NUDGE, "Remind Ravi to sweep the yard") == {"person": "Ravi", "task": "sweep the yard"}
    assert (
        bind(NUDGE, "Please remind Ana to return the drill by Friday")["task"] == "return the drill by Friday"
    )


def test_what_a_person_is_told_neither_chats_nor_negates():
    tools = (PAGER, KETTLE)
    for text in ("Text Ravi I love the new van", "Tell Ravi I don't need the ladder", "跟小周说我想她了"):
        assert [item.tool.name for item in plan(text, tools)] == ["pager_send"], text
        assert not asks_for_nothing(text)
    for text in ("Don't text Ravi", "Thanks, that's all", "I love the new van"):
        assert asks_for_nothing(text), text


UMBRELLA = model_tool(
    "umbrella_advice",
    "Say whether to take an umbrella in a town today.",
    {"town": {"type": "string"}},
    ("town",),
)


def test_what_a_person_is_told_names_no_tool():
    tools = (UMBRELLA, PAGER)
    assert [item.tool.name for item in plan("Can you tell Ravi I found his umbrella?", tools)] == [
        "pager_send"
    ]
    assert [item.tool.name for item in plan("Let Ravi know I took the umbrella", tools)] == ["pager_send"]
    assert [item.tool.name for item in plan("Do I need an umbrella in Leeds?", tools)] == ["umbrella_advice"]


def test_the_thing_sent_is_not_what_is_said():
    assert told_span("给小王发个消息") is None  # 发 sends a message; what it says is not written
    assert told_span("Let Ravi know I took the umbrella") == (14, 33)


ADDRESSED_MAIL = model_tool(
    "mailer_post",
    "Post a letter by email.",
    {
        "to": {"type": "string", "description": "Addressee name or email address"},
        "body": {"type": "string"},
    },
    ("to", "body"),
)
PHONE_MAIL = model_tool(
    "phone_mail",
    "Mail a note from the phone.",
    {"to": {"type": "string", "description": "Contact's name or e-mail address"}, "note": {"type": "string"}},
    ("to", "note"),
)


def test_a_name_or_an_email_address_takes_either():
    """A "name or email address" takes a person told: the address is the email's, not a place."""
    assert bind(ADDRESSED_MAIL, "Email Ravi that the van is parked") == {
        "to": "Ravi",
        "body": "the van is parked",
    }
    assert bind(PHONE_MAIL, "Email ravi@crew.example that the van is parked")["to"] == "ravi@crew.example"


def test_the_person_sent_a_message_is_its_recipient():
    """In "Send Ravi a message: …" Ravi is told; the message is what follows the colon, not "Ravi"."""
    assert _told("Send Ravi a message: the gate code is 5521") == ["Ravi"]
    assert _told("Send Ravi the gate code") == []
    assert bind(PAGER, "Send Ravi a message: the gate code is 5521") == {
        "member": "Ravi",
        "message": "the gate code is 5521",
    }


def test_chinese_says_what_a_person_is_told_right_after_them():
    """提醒周敏带钥匙: what follows the person, with no mark, is what they are told, whole; not 说 or 发."""
    assert told_span("提醒周敏带钥匙") == (4, 7)
    assert told_span("通知老赵仓库已经清空了") == (4, 11)
    assert told_span("给老赵发个消息") is None
    assert bind(NUDGE, "提醒周敏带钥匙") == {"person": "周敏", "task": "带钥匙"}
