"""Switches and imperatives (issue 22): a flag takes the side of a switch the request says, and
the verb that starts a command is no value. Tools and requests invented for these tests."""

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, properties: dict, required: list[str]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


ROOM = {"type": "string", "description": "Room name"}
LAMP = _tool(
    "set_lamp",
    "Set a lamp's brightness in a room.",
    {"room": ROOM, "level": {"type": "integer"}},
    ["room", "level"],
)
LIGHTS = _tool(
    "switch_light",
    "Switch the lights in a room on or off.",
    {"room": ROOM, "on": {"type": "boolean", "description": "true to switch on"}},
    ["room", "on"],
)
FAN = _tool("ceiling_fan", "Control a ceiling fan.", {"room": ROOM, "active": {"type": "boolean"}}, ["room"])
SPEAKER = _tool(
    "speaker_volume",
    "Mute or unmute a smart speaker.",
    {"speaker": {"type": "string"}, "muted": {"type": "boolean"}},
    ["speaker", "muted"],
)
GARAGE = _tool(
    "garage_door",
    "Move a garage door.",
    {
        "door": {"type": "string"},
        "open": {"type": "boolean", "description": "Whether the door ends up open."},
    },
    ["open"],
)
VPN = _tool(
    "vpn_tunnel", "Manage the VPN tunnel.", {"region": {"type": "string"}, "connect": {"type": "boolean"}}, []
)
ALERTS = _tool(
    "app_notifications",
    "Notification settings for an app.",
    {"app": {"type": "string"}, "enabled": {"type": "boolean"}},
    ["app", "enabled"],
)


def test_a_flag_named_on_takes_the_particle_or_the_verb_the_request_says():
    assert bind(LIGHTS, "Turn on the porch light", guess=False)["on"] is True
    assert bind(LIGHTS, "Switch off the attic lights", guess=False)["on"] is False
    assert bind(LIGHTS, "Lights on in the study please", guess=False)["on"] is True
    assert bind(LIGHTS, "Cut the lights in the cellar", guess=False)["on"] is False
    assert bind(LIGHTS, "把书房的灯关掉", guess=False)["on"] is False
    assert bind(LIGHTS, "开书房的灯", guess=False)["on"] is True


def test_a_negation_before_the_side_turns_it_over():
    assert bind(FAN, "Don't stop the fan in the loft", guess=False)["active"] is True
    assert bind(LIGHTS, "不要关走廊的灯", guess=False)["on"] is True


def test_a_flag_that_names_the_stopping_side_is_true_when_the_request_says_that_side():
    assert bind(SPEAKER, "Mute the patio speaker")["muted"] is True
    assert bind(SPEAKER, "Unmute the patio speaker")["muted"] is False
    assert bind(SPEAKER, "把阳台音箱静音")["muted"] is True
    assert bind(SPEAKER, "把阳台音箱取消静音")["muted"] is False


def test_a_flag_takes_a_verb_of_another_pair_on_the_same_side():
    assert bind(FAN, "Start the fan in the nursery", guess=False)["active"] is True
    assert bind(FAN, "Shut the nursery fan", guess=False)["active"] is False
    assert bind(GARAGE, "Lock the side garage door", guess=False)["open"] is False
    assert bind(ALERTS, "Silence the notifications from my chess app")["enabled"] is False
    assert bind(ALERTS, "关闭象棋应用的通知")["enabled"] is False
    assert bind(VPN, "Disconnect the VPN", guess=False)["connect"] is False
    assert bind(VPN, "断开VPN", guess=False)["connect"] is False


def test_the_verb_that_starts_a_command_is_no_value():
    assert bind(LAMP, "Dim the nursery to 20 percent") == {"room": "nursery", "level": 20}
    assert bind(LAMP, "Please brighten the pantry to 90 percent") == {"room": "pantry", "level": 90}
    assert bind(LIGHTS, "Kill the lights in the workshop")["room"] == "workshop"
    assert bind(LIGHTS, "Turn on the sunroom light")["room"] == "sunroom"
    assert bind(FAN, "Spin up the fan in the den")["room"] == "den"


LOCKED = {"cabinet": {"type": "string"}, "locked": {"type": "boolean"}}
CABINET = _tool("cabinet_lock", "Lock a cabinet.", LOCKED, ["locked"])


def test_a_chinese_side_the_segmenter_glued_to_the_noun_before_is_still_read():
    assert bind(CABINET, "把抽屉锁上", guess=False)["locked"] is True
    assert bind(CABINET, "把药柜锁好", guess=False)["locked"] is True
