"""The widgets' labels in English and Chinese, in the notebook's language.

The Chinese edition's code cells are the English ones, character for character, so the
language cannot be an argument: `language()` (from `wirelab.edition`) tells it from where
the notebook is, `WIRELAB_LANG` (`en` or `zh`) overriding.

    label("inspector.clear")                    # 'Clear', or '清空' in notebooks/zh
    label("inspector.count", messages="3 messages", errors="1 error")   # '3 messages · 1 error'
"""

from __future__ import annotations

from wirelab.edition import language

__all__ = ["LABELS", "label", "labels", "language"]

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "inspector.title": "Wire inspector",
        "inspector.traffic": "Wire traffic",
        "inspector.show_kind": "Show one kind",
        "inspector.show_method": "Show one method",
        "inspector.show_source": "Show one source",
        "inspector.all_kinds": "all kinds",
        "inspector.all_methods": "all methods",
        "inspector.all_sources": "all sources",
        "inspector.clear": "Clear",
        "inspector.export": "Export JSONL",
        "inspector.close": "Close",
        "inspector.answered_by": "answered by",
        "inspector.answers": "answers",
        "inspector.count": "{messages} · {errors}",
        "inspector.message": "{n} message",
        "inspector.messages": "{n} messages",
        "inspector.error": "{n} error",
        "inspector.errors": "{n} errors",
        "inspector.stream": "stream of {n} events",
        "inspector.request": "{messages}, last {last}",
        "inspector.shown": " · {n} shown",
        "inspector.columns": "#|time|dir|kind|method|id|status|latency|summary",
        "static.columns": "#|direction|kind|method|id|status|summary|latency",
        "static.message": "message",
        "static.messages": "messages",
        "static.error": "error",
        "static.errors": "errors",
        "static.headline": "{title}: {messages} ({errors}) on {channels}",
        "static.no_traffic": "no traffic yet",
        "static.hidden": "… {n} earlier messages not shown",
        "stepper.title": "Tool-call loop",
        "stepper.steps": "define|send|decide|execute|append|answer",
        "stepper.turn": "turn {n}",
        "stepper.waiting": "waiting for the loop…",
        "stepper.back": "↺ append goes back to send",
        "stepper.messages": "messages",
        "stepper.headline": "{title}: {steps}",
        "stepper.count": "messages ({n}):",
        "stepper.message_columns": "#|role|content",
        "stepper.define": "tools: {tools}",
        "stepper.send": "{n} messages and the tools → model",
        "stepper.decide_calls": "model asks for: {calls}",
        "stepper.decide_text": "model answers in text",
        "stepper.execute": "your code runs {name}({arguments}) → {result}",
        "stepper.append": 'role "tool" message paired by tool_call_id {id}',
        "stepper.answer": "answer: {content}",
    },
    "zh": {
        "inspector.title": "线路检查器",
        "inspector.traffic": "线路流量",
        "inspector.show_kind": "只看一种类型",
        "inspector.show_method": "只看一个方法",
        "inspector.show_source": "只看一个来源",
        "inspector.all_kinds": "全部类型",
        "inspector.all_methods": "全部方法",
        "inspector.all_sources": "全部来源",
        "inspector.clear": "清空",
        "inspector.export": "导出 JSONL",
        "inspector.close": "关闭",
        "inspector.answered_by": "响应见",
        "inspector.answers": "响应的是",
        "inspector.count": "{messages} · {errors}",
        "inspector.message": "{n} 条消息",
        "inspector.messages": "{n} 条消息",
        "inspector.error": "{n} 个错误",
        "inspector.errors": "{n} 个错误",
        "inspector.stream": "流式响应，共 {n} 个事件",
        "inspector.request": "{messages}，最后一条是 {last}",
        "inspector.shown": " · 显示 {n} 条",
        "inspector.columns": "#|时间|方向|类型|方法|id|状态|耗时|摘要",
        "static.columns": "#|方向|类型|方法|id|状态|摘要|耗时",
        "static.message": "条消息",
        "static.messages": "条消息",
        "static.error": "个错误",
        "static.errors": "个错误",
        "static.headline": "{title}：{messages}（{errors}），来源 {channels}",
        "static.no_traffic": "暂无流量",
        "static.hidden": "… 更早的 {n} 条消息未显示",
        "stepper.title": "工具调用循环",
        "stepper.steps": "定义|发送|决策|执行|追加|回答",
        "stepper.turn": "第 {n} 轮",
        "stepper.waiting": "等待循环开始…",
        "stepper.back": "↺ 追加之后回到发送",
        "stepper.messages": "消息",
        "stepper.headline": "{title}：{steps}",
        "stepper.count": "消息（{n} 条）：",
        "stepper.message_columns": "#|角色|内容",
        "stepper.define": "工具：{tools}",
        "stepper.send": "{n} 条消息和工具 → 模型",
        "stepper.decide_calls": "模型请求调用：{calls}",
        "stepper.decide_text": "模型直接用文本回答",
        "stepper.execute": "你的代码执行 {name}({arguments}) → {result}",
        "stepper.append": 'role 为 "tool" 的消息，按 tool_call_id {id} 配对',
        "stepper.answer": "回答：{content}",
    },
}


def labels(prefix: str, lang: str | None = None) -> dict[str, str]:
    """The labels whose key starts with `prefix.`, keyed without it (what a widget's view gets)."""
    table = LABELS[lang or language()]
    return {key.split(".", 1)[1]: text for key, text in table.items() if key.startswith(prefix + ".")}


def label(key: str, lang: str | None = None, **values: object) -> str:
    """One label, with `{name}` fields filled from `values`."""
    text = LABELS[lang or language()][key]
    return text.format(**values) if values else text
