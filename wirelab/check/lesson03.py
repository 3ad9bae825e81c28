"""Checks for lab 03: a schema built from hints and docstrings, and vague tools described well."""

from __future__ import annotations

import re
from typing import Any, Literal

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say
from wirelab.evals import Case, accuracy, evaluate
from wirelab.examples import vague_copy
from wirelab.tools import ToolRegistry, function_schema


def plan_trip(
    city: str,
    days: int,
    budget_eur: float | None = None,
    pace: Literal["relaxed", "busy"] = "relaxed",
    interests: list[str] | None = None,
    with_kids: bool = False,
) -> dict:
    """Plan a trip day by day.

    Args:
        city: Where to go, e.g. "Rome".
        days: How many days.
        budget_eur: Total budget in euros.
        pace: How full each day is.
        interests: Topics such as "museums" or "food".
        with_kids: Whether children come along.
    """
    return {}


def ping() -> str:
    """No parameters at all."""
    return "pong"


def book_hotel(city: str, check_in: str, nights: int) -> dict:
    """Travel service.

    Args:
        city: City name.
        check_in: Check-in day, YYYY-MM-DD.
        nights: Number of nights.
    """
    return {"hotel": f"Hotel in {city}", "check_in": check_in, "nights": nights}


def search_flights(origin: str, destination: str, date: str) -> list[dict]:
    """Travel service.

    Args:
        origin: Departure city.
        destination: Arrival city.
        date: Day of the flight, YYYY-MM-DD.
    """
    return [{"from": origin, "to": destination, "date": date, "price_eur": 120}]


def rent_car(city: str, pickup_date: str, days: int) -> dict:
    """Travel service.

    Args:
        city: Where to pick the car up.
        pickup_date: Pick-up day, YYYY-MM-DD.
        days: For how many days.
    """
    return {"car": "compact", "city": city, "days": days}


VAGUE = ToolRegistry(
    [
        vague_copy(book_hotel, "reserve", "Makes a reservation."),
        vague_copy(search_flights, "find", "Finds options."),
        vague_copy(rent_car, "get_one", "Gets one."),
    ]
)
CASES = [
    Case(
        "Book a hotel room in Rome for 3 nights from 2026-06-01", "book_hotel", {"city": "Rome", "nights": 3}
    ),
    Case("I need a hotel in Paris for 2 nights, check in 2026-07-10", "book_hotel", {"city": "Paris"}),
    Case(
        "Search flights from Oslo to Madrid on 2026-05-02",
        "search_flights",
        {"origin": "Oslo", "destination": "Madrid"},
    ),
    Case("Find me a flight from Berlin to Lisbon on 2026-08-15", "search_flights", {"origin": "Berlin"}),
    Case("Rent a car in Nice for 5 days from 2026-06-03", "rent_car", {"city": "Nice", "days": 5}),
    Case("I want to hire a car in Porto for 7 days, pick-up 2026-09-01", "rent_car", {"city": "Porto"}),
]


@exercise
def check_schema_of(schema_of: Any) -> None:
    for fn in (plan_trip, ping, book_hotel):
        try:
            got = schema_of(fn)
        except NotImplementedError as e:
            raise CheckFailed(
                say(f"schema_of is not written yet. Hint: {e}", f"schema_of 还没有写。提示：{e}")
            ) from None
        except Exception as e:
            raise CheckFailed(
                say(
                    f"schema_of({fn.__name__}) raised {type(e).__name__}: {e}. Its hints include "
                    "X | None (just X's schema), Literal[...] (an enum) and list[X] (an array of X)",
                    f"schema_of({fn.__name__}) 抛出了 {type(e).__name__}：{e}。它的类型注解里有 "
                    "X | None（就是 X 的 schema）、Literal[...]（一个 enum）和 list[X]（元素为 X 的 array）",
                )
            ) from None
        want = function_schema(fn)
        expect(
            isinstance(got, dict),
            say(
                f"schema_of({fn.__name__}) returned {got!r}: return a dict",
                f"schema_of({fn.__name__}) 返回了 {got!r}：应当返回一个 dict",
            ),
        )
        for key in ("type", "required", "additionalProperties"):
            expect(
                got.get(key) == want[key],
                say(
                    f"schema_of({fn.__name__})[{key!r}] is {got.get(key)!r}, expected {want[key]!r}",
                    f"schema_of({fn.__name__})[{key!r}] 是 {got.get(key)!r}，应为 {want[key]!r}",
                )
                + _why(key),
            )
        expect(
            list(got.get("properties", {})) == list(want["properties"]),
            say(
                f"schema_of({fn.__name__}) has properties {list(got.get('properties', {}))}: one per "
                f"parameter, in order: {list(want['properties'])}",
                f"schema_of({fn.__name__}) 的 properties 是 {list(got.get('properties', {}))}："
                f"每个参数一个，按顺序应为 {list(want['properties'])}",
            ),
        )
        for name, prop in want["properties"].items():
            expect(
                got["properties"][name] == prop,
                say(
                    f"schema_of({fn.__name__}) property {name!r} is "
                    f"{got['properties'][name]}, expected {prop}",
                    f"schema_of({fn.__name__}) 的属性 {name!r} 是 {got['properties'][name]}，应为 {prop}",
                )
                + _hint(got["properties"][name], prop),
            )
    passed(
        say(
            "schema_of agrees with wirelab.tools.function_schema on types, enums, defaults and descriptions",
            "schema_of 在类型、enum、默认值和描述上都与 wirelab.tools.function_schema 一致",
        )
    )


def _why(key: str) -> str:
    return {
        "required": say(": a parameter is required when it has no default", "：没有默认值的参数就是必填的"),
        "additionalProperties": say(
            ": set it to False so the model cannot invent parameters", "：设为 False，模型就不能编造参数"
        ),
        "type": say(
            ': the parameters schema is always {"type": "object", ...}',
            '：parameters 的 schema 总是 {"type": "object", ...}',
        ),
    }[key]


def _hint(got: Any, prop: dict[str, Any]) -> str:
    got = got if isinstance(got, dict) else {}
    if "enum" in prop and got.get("enum") != prop["enum"]:
        return say(" (a Literal becomes an enum of its values)", "（Literal 变成由它的取值组成的 enum）")
    if prop.get("type") == "array" and got.get("items") != prop.get("items"):
        return say(" (list[str] is an array whose items are strings)", "（list[str] 是元素为字符串的 array）")
    if got.get("default") != prop.get("default"):
        return say(
            " (record the default, unless it is None; X | None is just X's schema, optional)",
            "（记下默认值，除非它是 None；X | None 就是 X 的 schema，只是可选）",
        )
    if got.get("type") != prop.get("type"):
        return say(
            " (str, int, float, bool are string, integer, number, boolean)",
            "（str、int、float、bool 分别对应 string、integer、number、boolean）",
        )
    return say(
        " (the description comes from the docstring's Args: section)",
        "（description 取自 docstring 的 Args: 部分）",
    )


@exercise
def check_better_tools(describe_better: Any, llm: Any, model: str) -> None:
    baseline = accuracy(evaluate(llm, model, VAGUE, CASES))
    better = attempt(describe_better)
    expect(
        isinstance(better, ToolRegistry),
        say(
            f"better is a {type(better).__name__}: return a ToolRegistry",
            f"better 是 {type(better).__name__}：应当返回 ToolRegistry",
        ),
    )
    functions = sorted(t.function.__name__ for t in better)
    expect(
        functions == ["book_hotel", "rent_car", "search_flights"],
        say(
            f"better holds {functions}: "
            "describe the same three functions, book_hotel, search_flights and rent_car",
            f"better 里是 {functions}：要描述的是同样这三个函数：book_hotel、search_flights 和 rent_car",
        ),
    )
    outcomes = attempt(evaluate, llm, model, better, CASES)
    score = accuracy(outcomes)
    missed = [f"{o.case.request!r} -> {o.called}({dict(o.arguments)})" for o in outcomes if not o.ok]
    if score < 5 / 6:
        raise CheckFailed(
            say(
                f"accuracy {score:.0%} (vague: {baseline:.0%}); missed: {missed[0]}. Use the "
                "words users use in the name and the description (hotel, flight, car, rent…)",
                f"准确率 {score:.0%}（含糊的描述：{baseline:.0%}）；答错的：{missed[0]}。"
                "在名称和描述里用用户会说的词（hotel、flight、car、rent…）",
            )
        )
    for t in better:
        expect(
            re.search(r"side effect|books|reserv|charge", t.description, re.I) is not None
            or t.function is search_flights,
            say(
                f"{t.name}'s description does not say what it changes: state the side effect "
                "(e.g. 'Side effect: reserves and charges the room.')",
                f"{t.name} 的描述没有说它会改变什么：要写明副作用"
                "（例如 'Side effect: reserves and charges the room.'）",
            ),
        )
    passed(
        say(
            f"accuracy {baseline:.0%} with the vague descriptions, {score:.0%} with yours",
            f"含糊的描述准确率为 {baseline:.0%}，你的描述为 {score:.0%}",
        )
    )
