"""The command line: `python -m wirelab.interview list|start|check|mock`.

python -m wirelab.interview mock -n 5 --minutes 15        # the whole set against 15 minutes
python -m wirelab.interview mock -n 3 --mode pitch --lang zh   # 60 s per answer, in Chinese
python -m wirelab.interview mock -n 3 --mode deep         # 180 s per answer
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from wirelab.interview.bank import DrillError, load_bank, pick_mock
from wirelab.interview.coding import check_drill, coding_drills, get_drill, summary
from wirelab.interview.language import DEEP_SECONDS, LANGUAGES, MODES, PITCH_SECONDS, translated
from wirelab.interview.mock import mock_interview
from wirelab.interview.progress import Progress

DESCRIPTION = "Interview drills: timed coding drills and mock interviews against a clock."
DEFAULT_MINUTES = 15.0


def _cmd_list(args: argparse.Namespace) -> int:
    for drill in coding_drills().values():
        print(f"{drill.name:14} {drill.minutes:3} min  {drill.title}")
    return 0


def _cmd_start(args: argparse.Namespace) -> int:
    drill = get_drill(args.drill)
    Progress().start_drill(drill.name)
    print(
        f"{drill.title} - {drill.minutes} minutes from now.\n\n{drill.brief}\n\n"
        f"Edit {drill.starter}\nThen run: python -m wirelab.interview check {drill.name}"
    )
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    drill = get_drill(args.drill)
    result = check_drill(drill, Path(args.file) if args.file else None)
    print(result.output)
    print(summary(result, Progress().drill_started(drill.name), time.time()))
    return 0 if result.ok else 1


def _cmd_mock(args: argparse.Namespace) -> int:
    pool = [q for q in load_bank() if args.lang == "en" or q.zh is not None]
    questions = translated(pick_mock(pool, args.n, topic=args.topic, seed=args.seed), args.lang)
    minutes = None if args.mode else (DEFAULT_MINUTES if args.minutes is None else args.minutes)
    mock_interview(questions, minutes, Progress(), mode=args.mode, language=args.lang)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m wirelab.interview", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="list the coding drills").set_defaults(run=_cmd_list)
    start = commands.add_parser("start", help="start a coding drill's clock")
    start.add_argument("drill")
    start.set_defaults(run=_cmd_start)
    check = commands.add_parser("check", help="run a coding drill's checks")
    check.add_argument("drill")
    check.add_argument("--file", help="file to check (default: the drill's starter.py)")
    check.set_defaults(run=_cmd_check)
    mock = commands.add_parser("mock", help="mock interview: random questions against a timer")
    mock.add_argument("-n", type=int, default=5, help="number of questions (default 5)")
    clocks = mock.add_mutually_exclusive_group()
    clocks.add_argument(
        "--minutes", type=float, help=f"time limit for the whole set (default {DEFAULT_MINUTES:g})"
    )
    clocks.add_argument(
        "--mode",
        choices=tuple(MODES),
        help=f"a time limit per question instead: pitch ({PITCH_SECONDS} s, the 背诵版) or deep "
        f"({DEEP_SECONDS} s); an answer over it counts as missed",
    )
    mock.add_argument("--topic", help="only this topic")
    mock.add_argument("--seed", type=int, help="repeatable draw")
    mock.add_argument("--lang", choices=LANGUAGES, default="en", help="ask in English or Chinese (zh)")
    mock.set_defaults(run=_cmd_mock)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except DrillError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
