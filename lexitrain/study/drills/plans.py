"""Study plans: which cards a player works through, and in what order.

A plan is a list of steps, each naming a question kind and where its keys
come from: explicit keys, alphagrams of one length straight from the lexicon
in probability order, or a search source (a query, a saved search, a built-in
list, a word file). Setting a plan creates its cards and queues the new ones
in step order; the daily drill introduces them from the front of that queue.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.search.sources import source_blanks
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.quiz.sources import question_keys, question_results
from lexitrain.study.store import PlanRow, ProgressStore

#: What a fresh install studies: twos, threes, then the most probable sevens and eights.
DEFAULT_PLAN: list[dict[str, Any]] = [
    {"kind": "anagram", "length": 2},
    {"kind": "anagram", "length": 3},
    {"kind": "anagram", "length": 7, "top": 500},
    {"kind": "anagram", "length": 8, "top": 500},
]
DEFAULT_PLAN_NAME = "default"
SOURCE_FIELDS = ("query", "saved", "builtin", "word_file")


def step_keys(lex: Lexicon, step: dict[str, Any]) -> list[str]:
    """The card keys one plan step stands for, in study order."""
    kind = new_kind(step.get("kind", "anagram"))
    minimum = int(step.get("minimum", 2))
    if "keys" in step:
        return list(step["keys"])
    if "length" in step:
        top = int(step["top"]) if step.get("top") else None
        keys = kind.keys_from_alphagrams(lex.alphagrams_by_rank(int(step["length"]), (1, top) if top else None),
                                         minimum)
        if keys is None:
            raise LexitrainError(f"a plan step by length makes anagram or build questions, not {kind.name}")
        return keys
    source = {name: step[name] for name in SOURCE_FIELDS if step.get(name)}
    if not source:
        raise LexitrainError(f"plan step {json.dumps(step)} names no source (keys, length, {', '.join(SOURCE_FIELDS)})")

    if "word_file" in source:
        source["word_file"] = Path(source["word_file"])
    results = question_results(lex, **source)
    return question_keys(kind, results, minimum, not step.get("as_listed", False), source_blanks(**source))


def set_plan(store: ProgressStore, lex: Lexicon, name: str, steps: list[dict[str, Any]]) -> PlanRow:
    """Create (or replace) plan NAME from its steps and make it the active plan."""
    if not name.strip():  # `study show` would say "plan : 73 cards"
        raise LexitrainError(f"plan name {name!r}: give the plan a name, e.g. --name sevens")
    kind_keys: list[tuple[str, str]] = []
    for step in steps:
        kind = step.get("kind", "anagram")
        kind_keys += [(kind, key) for key in step_keys(lex, step)]
    kind_keys = list(dict.fromkeys(kind_keys))
    if not kind_keys:
        raise LexitrainError(f"plan {name!r} has no questions in {lex.name}")
    now = utc_now().timestamp()
    with store.transaction():
        plan_id = store.queue_plan(lex.name, name, steps, store.ensure_cards(lex.name, kind_keys, now), now)
        store.set_setting(f"plan:{lex.name}", plan_id)
    return plan_info(store, plan_id)


def plan_info(store: ProgressStore, plan_id: int) -> PlanRow:
    plan = store.plan(plan_id)
    if plan is None:
        raise LexitrainError(f"no study plan with id {plan_id}")
    return plan


def active_plan(store: ProgressStore, lex: Lexicon, waiting_up_to: int | None = None) -> PlanRow:
    """The lexicon's active plan (its waiting cards counted up to WAITING_UP_TO: `Plans.plan`); on first use, the
    default plan is set up."""
    plan_id = store.setting(f"plan:{lex.name}")
    if plan_id is not None:
        plan = store.plan(plan_id, waiting_up_to)
        if plan is not None:
            return plan
    return set_plan(store, lex, DEFAULT_PLAN_NAME, DEFAULT_PLAN)
