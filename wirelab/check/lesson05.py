"""Checks for lab 05: schema problems as structured errors, a semantic check, backoff delays."""

from __future__ import annotations

from typing import Any, Literal

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say
from wirelab.errors import ToolError, error_of
from wirelab.tools import function_schema

ORDERS = {"ord_1001": "2 books", "ord_1002": "a desk lamp"}


def schedule_delivery(order_id: str, date: str, speed: Literal["standard", "express"] = "standard") -> dict:
    """Schedule the delivery of an order on a date.

    Args:
        order_id: The order id, e.g. "ord_1001".
        date: Delivery date, YYYY-MM-DD.
        speed: Delivery speed.
    """
    return {"order_id": order_id, "date": date, "speed": speed}


SCHEMA = function_schema(schedule_delivery)


def _error(got: Any, case: str) -> dict[str, Any]:
    expect(
        isinstance(got, str),
        say(
            f"for {case} to_tool_error returned {got!r}: return ToolError(...).content(), a JSON string",
            f"对{case}，to_tool_error 返回了 {got!r}：应当返回 ToolError(...).content()，即一个 JSON 字符串",
        ),
    )
    error = error_of(got)
    expect(
        error is not None,
        say(
            f"for {case} the result {got!r} is not a structured error: "
            'it must look like {"error": {"code": ..., "message": ...}}',
            f'对{case}，结果 {got!r} 不是结构化错误：它必须形如 {{"error": {{"code": ..., "message": ...}}}}',
        ),
    )
    return error


@exercise
def check_to_tool_error(to_tool_error: Any) -> None:
    valid = {"order_id": "ord_1001", "date": "2026-12-10"}
    expect(
        attempt(to_tool_error, valid, SCHEMA) is None,
        say("valid arguments must give None: nothing to report", "合法的参数必须得到 None：没有什么要报告的"),
    )
    missing = _error(
        attempt(to_tool_error, {"date": "2026-12-10"}, SCHEMA),
        say("a missing order_id", "缺少 order_id 的情况"),
    )
    expect(
        missing.get("code") == "invalid_arguments",
        say(
            f"the code was {missing.get('code')!r}: use 'invalid_arguments'",
            f"code 是 {missing.get('code')!r}：应当用 'invalid_arguments'",
        ),
    )
    expect(
        missing.get("field") == "order_id",
        say(
            f"for a missing order_id the field was "
            f"{missing.get('field')!r}: for a 'required' error the field is the missing name, "
            "which is not in error.path (the path points at the object)",
            f"缺少 order_id 时 field 是 "
            f"{missing.get('field')!r}：对 'required' 错误，field 是缺少的那个名字，"
            "它不在 error.path 里（path 指向的是整个对象）",
        ),
    )
    expect(
        bool(missing.get("suggestion")),
        say(
            "give a suggestion: the model reads it to fix the call", "要给出 suggestion：模型会读它来修正调用"
        ),
    )
    no_date = _error(
        attempt(to_tool_error, {"order_id": "ord_1001"}, SCHEMA), say("a missing date", "缺少 date 的情况")
    )
    expect(
        no_date.get("field") == "date",
        say(
            f"for arguments with order_id but no date the field was {no_date.get('field')!r}: name the "
            "required property that is missing from error.instance, not the first one the schema "
            "lists in error.validator_value",
            f"参数有 order_id 而没有 date 时，field 是 {no_date.get('field')!r}：要写出 error.instance "
            "中缺少的那个必填属性，而不是 schema 在 error.validator_value 里列出的第一个",
        ),
    )
    enum = _error(
        attempt(to_tool_error, {**valid, "speed": "Express"}, SCHEMA),
        say("speed='Express'", " speed='Express' "),
    )
    expect(
        enum.get("field") == "speed" and enum.get("allowed") == ["standard", "express"],
        say(
            f"for speed='Express' the error was {enum}: name the field 'speed' and list "
            "allowed=['standard', 'express'] (error.validator_value for an 'enum' error)",
            f"对 speed='Express'，错误是 {enum}：要写出字段 'speed'，并列出 "
            "allowed=['standard', 'express']（'enum' 错误的 error.validator_value）",
        ),
    )
    passed(
        say(
            "schema problems come back as errors with a field, allowed values and a suggestion",
            "schema 问题以错误的形式返回，带有 field、允许的取值和 suggestion",
        )
    )


@exercise
def check_order_exists(order_exists: Any) -> None:
    expect(
        attempt(order_exists, {"order_id": "ord_1001"}) is None,
        say(
            "order_exists must accept an order that exists (ord_1001) and return None",
            "order_exists 必须接受存在的订单（ord_1001），并返回 None",
        ),
    )
    try:
        order_exists({"order_id": "ord_1003"})
    except ToolError as e:
        error = e.as_dict()["error"]
    except NotImplementedError as e:
        raise CheckFailed(
            say(f"order_exists is not written yet. Hint: {e}", f"order_exists 还没有写。提示：{e}")
        ) from None
    except Exception as e:
        raise CheckFailed(
            say(
                f"order_exists raised {type(e).__name__}: raise a ToolError instead",
                f"order_exists 抛出了 {type(e).__name__}：应当改为抛出 ToolError",
            )
        ) from None
    else:
        raise CheckFailed(
            say(
                "order_exists accepted ord_1003, which is not in ORDERS: raise ToolError",
                "order_exists 接受了不在 ORDERS 里的 ord_1003：应当抛出 ToolError",
            )
        )
    expect(
        error.get("code") == "not_found" and error.get("field") == "order_id",
        say(
            f"the error was {error}: use code 'not_found' and field='order_id'",
            f"错误是 {error}：应当用 code 'not_found' 和 field='order_id'",
        ),
    )
    suggestion = str(error.get("suggestion", ""))
    expect(
        bool(suggestion),
        say(
            "add a suggestion that tells the model how to find the right id",
            "加上 suggestion，告诉模型怎样找到正确的 id",
        ),
    )
    expect(
        not any(order in suggestion for order in ORDERS),
        say(
            f"the suggestion {suggestion!r} names another order: the model would act on someone "
            "else's order. Say how to find the right id (ask the user, list their orders) instead",
            f"suggestion {suggestion!r} 写出了另一个订单：模型会去操作别人的订单。"
            "应当改为说明怎样找到正确的 id（问用户、列出用户的订单）",
        ),
    )
    passed(
        say(
            "an unknown order is a not_found error whose suggestion guesses no other id",
            "未知订单得到 not_found 错误，它的 suggestion 不去猜别的 id",
        )
    )


@exercise
def check_backoff_delays(backoff_delays: Any) -> None:
    ceilings = attempt(backoff_delays, 5, 0.5, 3.0, lambda: 1.0)
    expect(
        isinstance(ceilings, list) and len(ceilings) == 4,
        say(
            f"backoff_delays(5, ...) returned {ceilings!r}: 5 attempts have 4 waits between them",
            f"backoff_delays(5, ...) 返回了 {ceilings!r}：5 次尝试之间有 4 次等待",
        ),
    )
    expect(
        ceilings == [0.5, 1.0, 2.0, 3.0],
        say(
            f"with random() = 1.0 the waits were {ceilings}: "
            "each is min(cap_s, base_s * 2**n), so [0.5, 1.0, 2.0, 3.0]",
            f"random() = 1.0 时等待时间是 {ceilings}："
            "每次都是 min(cap_s, base_s * 2**n)，所以应为 [0.5, 1.0, 2.0, 3.0]",
        ),
    )
    draws = iter([0.5, 0.25, 0.0, 1.0])
    jittered = attempt(backoff_delays, 5, 0.5, 3.0, lambda: next(draws))
    expect(
        jittered == [0.25, 0.25, 0.0, 3.0],
        say(
            f"with random() = 0.5, 0.25, 0.0, 1.0 the waits "
            f"were {jittered}: full jitter multiplies each ceiling by a fresh random()",
            f"random() 依次为 0.5、0.25、0.0、1.0 时，等待时间是 {jittered}："
            "full jitter 要把每个上限乘以一个新取的 random()",
        ),
    )
    expect(
        attempt(backoff_delays, 1, 0.5, 3.0, lambda: 1.0) == [],
        say("one attempt means no wait", "只尝试一次就不用等待"),
    )
    passed(
        say(
            "backoff doubles up to the cap, and full jitter draws each wait below its ceiling",
            "退避时间逐次翻倍直到上限，full jitter 让每次等待都随机落在上限以下",
        )
    )
