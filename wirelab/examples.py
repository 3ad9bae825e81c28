"""Example tools the lessons describe and evaluate: an office assistant's eight tools.

Each is a typed function whose docstring follows the rules of lesson 03: a
verb_noun name, a first sentence saying what it does and returns, side
effects stated, parameters named for what they hold, with an example. The
bodies return canned data: lessons 03 and 06 study how tools are *chosen*.

`OFFICE` lists them; `vague_copy` builds the same tool described badly, the
way tools often are in the wild, for the eval of lesson 03.
"""

from __future__ import annotations

from typing import Any, Literal

from wirelab.tools import JSONSchema, Tool, tool


def send_email(recipient_email: str, subject: str, body: str) -> dict:
    """Send an email message to one recipient. Side effect: it is sent at once and cannot be recalled.

    Args:
        recipient_email: Recipient email address, e.g. "ann@example.com".
        subject: Subject line of the email.
        body: Text of the email message.
    """
    return {"sent": True, "to": recipient_email, "subject": subject}


def search_contacts(name: str) -> list[dict]:
    """Search the user's contacts (address book) by a person's name; returns phone numbers and emails.

    Args:
        name: Full or partial name of the person, e.g. "Maria Lopez".
    """
    return [{"name": name, "phone": "+33 1 23 45 67 89", "email": "maria@example.com"}]


def create_event(title: str, date: str, attendees: list[str] | None = None) -> dict:
    """Create an event (meeting, lunch, appointment) in the user's calendar. Side effect: invites attendees.

    Args:
        title: Name of the event, e.g. "Budget review".
        date: Day of the event, YYYY-MM-DD.
        attendees: Email addresses to invite.
    """
    return {"created": title, "date": date, "invited": attendees or []}


def get_weather(city: str) -> dict:
    """Current weather for a city: temperature, rain, wind. Read-only.

    Args:
        city: City name, e.g. "Lisbon".
    """
    return {"city": city, "temp_c": 17, "rain": False}


def convert_currency(amount: float, from_currency: str, to_currency: str) -> dict:
    """Convert an amount of money from one currency to another at today's rate (euros, dollars, GBP, JPY…).

    Args:
        amount: How much money to convert, e.g. 120.
        from_currency: Currency code to convert from, e.g. "EUR".
        to_currency: Currency code to convert to, e.g. "USD".
    """
    return {"amount": amount, "from": from_currency, "to": to_currency, "rate": 1.1}


def translate_text(
    text: str, target_language: Literal["english", "french", "spanish", "german", "japanese"]
) -> dict:
    """Translate text into another language; say which language to translate into.

    Args:
        text: The text to translate.
        target_language: Language to translate the text into.
    """
    return {"text": text, "language": target_language}


def get_order_status(order_id: str) -> dict:
    """Shipping status of a customer's order or package: where it is, whether it has shipped. Read-only.

    Args:
        order_id: Order id, e.g. "ord_5521".
    """
    return {"order_id": order_id, "status": "shipped"}


def set_reminder(text: str, date: str | None = None) -> dict:
    """Set a reminder for the user on a day (default: tomorrow). Side effect: schedules a notification.

    Args:
        text: What to remind the user of.
        date: Day of the reminder, YYYY-MM-DD.
    """
    return {"reminder": text, "date": date or "tomorrow"}


OFFICE = [
    send_email,
    search_contacts,
    create_event,
    get_weather,
    convert_currency,
    translate_text,
    get_order_status,
    set_reminder,
]


def without_descriptions(schema: JSONSchema) -> JSONSchema:
    """The same parameters schema with every parameter's `description` removed."""
    properties = {
        name: {k: v for k, v in prop.items() if k != "description"}
        for name, prop in schema.get("properties", {}).items()
    }
    return {**schema, "properties": properties}


def vague_copy(fn: Any, name: str, description: str) -> Tool:
    """`fn` as a tool with a vague name and description and no parameter descriptions."""
    return Tool(name, description, without_descriptions(tool(fn).parameters), fn)
