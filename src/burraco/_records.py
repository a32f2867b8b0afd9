"""Game records (JSON Lines) and JSON views of a hand, for both engines (docs/records.md).

Serialization is not a rule of the game, so this one module serves the C++ core and
:mod:`burraco.reference` alike. It works only through the public ``Game`` API of docs/game.md
and docs/search.md; the engine-specific classes (``Game``, ``Rules``) are passed in.

* ``game.record()`` / ``Game.from_record(record)``: one hand as a versioned JSON-serialisable dict
  (the rules, how the hand was dealt, the moves in notation, the result); replaying it gives the
  identical game, history included.
* :func:`write_records` / :func:`read_records`: many records as JSON Lines, one per line.
* ``game.to_json(player=k)``: what seat k may see, built from ``game.observation(k)``;
  ``game.to_json()``: the whole state; ``Game.from_json(text)`` restores the latter.

Both engines' ``Game`` define these methods as one-line calls into this module (the core's in
cpp/bindings/game.cpp).
"""

from __future__ import annotations

import io
import json
import os
import re
import reprlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Union, cast

from ._engine_api import (  # the parts of the engines read here
    _Card,
    _Meld,
    _Rules,
    _Result,
    _Observation,
    _G,
    _Game,
    _GameClass,
    _RulesClass,
)
from ._errors import BurracoError, IllegalMoveError, InvalidNotationError, InvalidStateError

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "Json",
    "Record",
    "from_json",
    "from_record",
    "read_records",
    "record",
    "rules_text",
    "to_json",
    "view",
    "write_records",
]

#: The ``format`` tag and ``version`` of a game record (docs/records.md).
RECORD_FORMAT = "burraco-record"
RECORD_VERSION = 1
#: The ``format`` tag and ``version`` of a JSON view (docs/records.md).
VIEW_FORMAT = "burraco-view"
VIEW_VERSION = 1

#: A JSON value as :mod:`json` reads and writes it.
Json = Union[None, bool, int, float, str, list["Json"], dict[str, "Json"]]  # noqa: UP007
#: One game record (or JSON view) as a dict.
Record = dict[str, Json]

_RECORD_KEYS = ("format", "version", "rules", "first", "scores", "seed", "deck", "start", "moves",
                "result")
_SEED_LIMIT = 1 << 64
# Fields of a version-1 state string that a deal from a seed and one from a deck may differ in.
_DEAL_SOURCE_FIELDS = ("seed", "cut")


# --- small helpers ---------------------------------------------------------------------------------


def _fields(text: str) -> dict[str, str]:
    """The ``name=value`` fields of a state or observation string, in order."""
    return dict(part.split("=", 1) for part in text.split(";"))


def _card_names(cards: Iterable[_Card]) -> list[str]:
    return [str(card) for card in cards]


def _int_or_none(text: str) -> int | None:
    return None if text == "-" else int(text)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: object, limit: int = 120) -> str:
    """``repr(value)``, cut to ``limit`` characters for an error message (a value nested too deep
    for ``repr`` is shown to a few levels)."""
    try:
        text = repr(value)
    except RecursionError:
        text = reprlib.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- strict JSON: nesting, a byte order mark, ints that are ints ------------------------------

#: The deepest nesting of arrays and objects each format has (docs/records.md): a record's
#: ``result.sides[i]`` is 4 levels down (the record itself is the first); a view's
#: ``sides[i].melds[j].cards`` is 6.
_RECORD_DEPTH = 4
_VIEW_DEPTH = 6
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _json_text(text: str | bytes) -> str:
    """The text of a JSON document given as str or bytes, a leading byte order mark dropped."""
    if isinstance(text, bytes):
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    return text[1:] if text.startswith("\ufeff") else text


def _nesting(text: str) -> int:
    """How deep arrays and objects nest in the JSON ``text`` (brackets inside strings ignored)."""
    depth = deepest = 0
    for bracket in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _too_deep(value: object, limit: int) -> bool:
    """Whether lists and dicts nest deeper than ``limit`` levels in ``value`` (no recursion)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, tuple, dict)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _mismatch(given: object, expected: object, path: str) -> tuple[bool, str] | None:
    """Where ``given`` differs from ``expected`` (JSON data), or None if they are equal with the
    same JSON types: ``(True, path)`` where an int or a bool was needed and something else of
    another number type was given (``1.0`` or ``true`` for ``1``, ``1`` for ``true``),
    ``(False, path)`` for any other difference. Walks ``expected``'s depth only."""
    if isinstance(expected, bool) or (isinstance(expected, int) and not isinstance(expected, bool)):
        if isinstance(given, (bool, int, float)) and type(given) is not type(expected):
            return True, path
        return None if type(given) is type(expected) and given == expected else (False, path)
    if isinstance(expected, list):
        if not isinstance(given, list) or len(given) != len(expected):
            return False, path
        for index, (item, want) in enumerate(zip(given, expected)):
            found = _mismatch(item, want, f"{path}[{index}]")
            if found:
                return found
        return None
    if isinstance(expected, dict):
        if not isinstance(given, dict) or given.keys() != expected.keys():
            return False, path
        for key, want in expected.items():
            found = _mismatch(given[key], want, f"{path}.{key}")
            if found:
                return found
        return None
    return None if type(given) is type(expected) and given == expected else (False, path)


def _at(data: object, path: str) -> object:
    """The value at a ``_mismatch`` path (``name.key[2].key``) of ``data``."""
    for part in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path):
        key, index = part
        data = data[int(index)] if index else data[key]  # type: ignore[index]
    return data


# --- rules text (the ``rules`` field of a state string, docs/game.md) -------------------------


def rules_text(rules: _Rules, rules_class: _RulesClass) -> str:
    """The canonical text of a rule set, as a state string's ``rules`` field writes it: the
    engine's own ``rules.text`` (``rules_class`` names the engine, for symmetry with
    :func:`_parse_rules`)."""
    return rules.text


def _parse_rules(text: str, rules_class: _RulesClass) -> _Rules:
    """The ``Rules`` of a canonical rules text: the engine's own ``Rules.from_text``
    (InvalidNotationError quoting the text otherwise)."""
    return rules_class.from_text(text)


# --- results ---------------------------------------------------------------------------------------

_SIDE_RESULT_FIELDS = ("side", "melds", "bonuses", "closing", "hand", "pozzetto", "cut", "total")


def _result_json(result: _Result) -> Record:
    """A finished hand's ``Result`` as JSON data (docs/records.md "result")."""
    scores = result.player_scores
    return {
        "end_reason": result.end_reason,
        "closing_side": result.closing_side,
        "sides": [{name: cast(int, getattr(side, name)) for name in _SIDE_RESULT_FIELDS}
                  for side in result.sides],
        "player_scores": None if scores is None else [int(score) for score in scores],
    }


# --- game records ----------------------------------------------------------------------------------


def _start_of(game: _G) -> _G:
    """A copy of ``game`` with every move undone: the position its history starts from."""
    start = game.copy()
    for _ in range(len(game.moves)):
        start.pop()
    return start


def _deck_of(start: _Game) -> str:
    """The deck order that deals the position ``start`` (a fresh deal), by docs/game.md "Deal"
    read backwards: the hands round the table from the first player, the packets one card at a time,
    the face-up card, the stock. Only meaningful if dealing it gives ``start`` back."""
    rules = start.rules
    players = start.players
    first = start.first_player
    hands = [_card_names(start.hand(seat)) for seat in range(players)]
    order: list[str] = []
    for position in range(rules.hand_size * players):
        seat = (first + position) % players
        index = position // players
        order.append(hands[seat][index] if index < len(hands[seat]) else "?")
    packets = [_card_names(cards) for _status, _owner, cards in start.pozzetti]
    taken = [0] * len(packets)
    sizes = rules.pozzetto_sizes
    while any(count < size for count, size in zip(taken, sizes)):
        for number, size in enumerate(sizes):
            if taken[number] < size:
                packet = packets[number] if number < len(packets) else []
                order.append(packet[taken[number]] if taken[number] < len(packet) else "?")
                taken[number] += 1
    if rules.initial_upcard:
        top = start.top_discard
        order.append("?" if top is None else str(top))
    order.extend(_card_names(start.stock))
    return " ".join(order)


def record(game: _Game, rules_class: _RulesClass, game_class: _GameClass[_Game]) -> Record:
    """``game.record()``: the hand as a version-1 game record (docs/records.md), read from one
    snapshot (``game.copy()``) so that another thread's moves cannot tear it."""
    game = game.copy()
    state = _fields(game.state_string())
    history = getattr(game, "_record_history", None)  # the core: start and moves in one call
    if history is not None:
        start_state, moves = history()
    else:
        start = _start_of(game)
        start_state = start.state_string()
        moves = [str(move) for move in game.moves]
    seed: int | None = None
    deck: str | None = None
    start_text: str | None = None
    if game.seed is not None and game_class(
        game.rules, seed=game.seed, first_player=game.first_player, scores=game.scores
    ).state_string() == start_state:
        seed = game.seed
    else:
        if history is not None:
            start = _start_of(game)
        candidate = _deck_of(start)
        try:
            dealt = game_class(game.rules, deck=candidate, first_player=game.first_player,
                               scores=game.scores).state_string()
        except BurracoError:  # not a fresh deal: no deck deals it
            dealt = None
        if dealt == start_state:
            deck = candidate
        else:
            start_text = start_state
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": state["rules"],
        "first": game.first_player,
        "scores": list(game.scores),
        "seed": seed,
        "deck": deck,
        "start": start_text,
        "moves": moves,
        "result": _result_json(game.result()) if game.is_over() else None,
    }


def _load_record(record: object) -> Record:
    """The record as a dict, from a dict or one JSON line (InvalidNotationError otherwise)."""
    if isinstance(record, (str, bytes)):
        try:
            text = _json_text(record)
        except ValueError as error:  # undecodable bytes
            raise InvalidNotationError(
                f"{_short(record)} is not a JSON game record: {error}") from None
        if _nesting(text) > _RECORD_DEPTH:
            raise InvalidNotationError(
                f"{_short(record)} is not a game record: arrays and objects nest deeper than "
                f"the format's {_RECORD_DEPTH} levels")
        try:
            record = json.loads(text)
        except ValueError as error:
            raise InvalidNotationError(
                f"{_short(record)} is not a JSON game record: {error}") from None
    if not isinstance(record, dict):
        raise InvalidNotationError(f"{_short(record)} is not a game record: expected a JSON object")
    return cast(Record, record)


def _check_record(data: Record) -> None:
    """The record's shape: format, version, every field present with its type (no replay)."""
    if data.get("format") != RECORD_FORMAT:
        raise InvalidNotationError(
            f"format {_short(data.get('format'))} is not a game record (expected {RECORD_FORMAT!r})")
    if data.get("version") != RECORD_VERSION or not _is_int(data.get("version")):
        raise InvalidNotationError(
            f"game record version {_short(data.get('version'))} is not supported "
            f"(this burraco reads version {RECORD_VERSION})")
    missing = [key for key in _RECORD_KEYS if key not in data]
    if missing:
        raise InvalidNotationError(f"the game record lacks the field(s) {', '.join(missing)}")
    unknown = [key for key in data if key not in _RECORD_KEYS]
    if unknown:
        raise InvalidNotationError(f"the game record has unknown field(s) {', '.join(unknown)}")
    for key in _RECORD_KEYS:
        if _too_deep(data[key], _RECORD_DEPTH - 1):
            raise InvalidNotationError(
                f"record field {key}={_short(data[key])}: nested deeper than a game record has")

    def wrong(name: str, expected: str) -> InvalidNotationError:
        return InvalidNotationError(f"record field {name}={_short(data[name])}: expected {expected}")

    if not isinstance(data["rules"], str):
        raise wrong("rules", "a rules text such as 'italian' or 'brazilian:players=2'")
    if not _is_int(data["first"]):
        raise wrong("first", "the first player's seat, an int")
    scores = data["scores"]
    if not isinstance(scores, list) or not all(_is_int(score) for score in scores):
        raise wrong("scores", "a list of ints")
    seed = data["seed"]
    if seed is not None and not (_is_int(seed) and 0 <= cast(int, seed) < _SEED_LIMIT):
        raise wrong("seed", "null or an int in [0, 2**64)")
    if data["deck"] is not None and not isinstance(data["deck"], str):
        raise wrong("deck", "null or a card list such as 'Ac 4c ... Jk'")
    if data["start"] is not None and not isinstance(data["start"], str):
        raise wrong("start", "null or a state string")
    if seed is None and data["deck"] is None and data["start"] is None:
        raise InvalidNotationError("the game record says neither seed, deck nor start: "
                                   "how the hand was dealt is missing")
    moves = data["moves"]
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise wrong("moves", "a list of moves in notation, such as ['draw', 'discard Qs']")
    if data["result"] is not None and not isinstance(data["result"], dict):
        raise wrong("result", "null or a result object")
    if data["result"] is not None:
        _check_result_shape(data["result"])
    for number, move in enumerate(cast(list[str], moves), 1):
        words = [word for word in re.split(r"[ \t\n\r\f\v,]+", move) if word]
        if len(words) > 3 and words[0].lower() == "add":
            raise InvalidNotationError(
                f"record move {number} of {len(moves)} ({move!r}) is several moves: a record "
                f"lists each lay-off as a move of its own ('add {words[1]} {words[2]}', ...)")


def _check_result_shape(result: Record) -> None:
    """A recorded result's fields and their types (docs/records.md "result"); the values are
    checked against the replay by ``from_record``."""
    def wrong(path: str, value: object, expected: str) -> InvalidNotationError:
        return InvalidNotationError(f"record field {path}={_short(value)}: expected {expected}")

    keys = ("end_reason", "closing_side", "sides", "player_scores")
    if set(result) != set(keys):
        raise wrong("result", result, "an object with the fields " + ", ".join(keys))
    if not isinstance(result["end_reason"], str):
        raise wrong("result.end_reason", result["end_reason"], "a string")
    if result["closing_side"] is not None and not _is_int(result["closing_side"]):
        raise wrong("result.closing_side", result["closing_side"], "null or an int")
    sides = result["sides"]
    if not isinstance(sides, list):
        raise wrong("result.sides", sides, "a list of side results")
    for index, side in enumerate(sides):
        if not isinstance(side, dict) or set(side) != set(_SIDE_RESULT_FIELDS):
            raise wrong(f"result.sides[{index}]", side,
                        "an object with the fields " + ", ".join(_SIDE_RESULT_FIELDS))
        for name in _SIDE_RESULT_FIELDS:
            if not _is_int(side[name]):
                raise wrong(f"result.sides[{index}].{name}", side[name], "an int")
    scores = result["player_scores"]
    if scores is not None and not (isinstance(scores, list) and all(map(_is_int, scores))):
        raise wrong("result.player_scores", scores, "null or a list of ints")


def _check_deck_cards(deck: str, rules: _Rules) -> None:
    """InvalidStateError unless ``deck`` lists exactly the rules' full pack (RULES A.1)."""
    words = [word for word in re.split(r"[ \t\n\r\f\v,]+", deck) if word]
    full: Counter[str] = Counter()
    for index in range(52):
        full["A23456789TJQK"[index % 13] + "cdhs"[index // 13]] += rules.decks
    if rules.jokers:
        full["Jk"] = rules.jokers
    names: Counter[str] = Counter()
    for word in words:
        name = word[:-1].upper().replace("10", "T") + word[-1:].lower() if word.lower() != "jk" \
            else "Jk"
        names[name] += 1
    if names != full:
        extra = names - full
        lacking = full - names
        why = []
        if extra:
            why.append("too many " + " ".join(sorted(extra.elements())))
        if lacking:
            why.append("missing " + " ".join(sorted(lacking.elements())))
        raise InvalidStateError(
            f"record field deck={_short(deck)} is not the full pack of {rules.total_cards} cards "
            f"(RULES A.1): {'; '.join(why)}")


def _masked(state: str) -> dict[str, str]:
    fields = _fields(state)
    for name in _DEAL_SOURCE_FIELDS:
        fields.pop(name, None)
    return fields


def from_record(game_class: _GameClass[_G], rules_class: _RulesClass, record: object) -> _G:
    """``Game.from_record(record)``: replay a game record (a dict or one JSON line) into the
    identical game, history included; refuse a bad record, quoting the bad part, without
    returning a partial game (docs/records.md)."""
    data = _load_record(record)
    _check_record(data)
    rules = _parse_rules(cast(str, data["rules"]), rules_class)
    first = cast(int, data["first"])
    scores = tuple(cast(list[int], data["scores"]))
    seed = cast(int | None, data["seed"])
    deck = cast(str | None, data["deck"])
    start = cast(str | None, data["start"])
    try:
        if deck is not None:
            _check_deck_cards(deck, rules)
        game: _G | None = None
        if seed is not None:
            game = game_class(rules, seed=seed, first_player=first, scores=scores)
        if deck is not None:
            dealt = game_class(rules, deck=deck, first_player=first, scores=scores)
            if game is None:
                game = dealt
            elif _masked(dealt.state_string()) != _masked(game.state_string()):
                raise InvalidStateError(
                    f"record fields seed={seed} and deck={_short(deck)} disagree: the deck does "
                    f"not deal the hand the seed deals")
    except InvalidNotationError as error:  # the engine refused the seat or the scores
        raise InvalidNotationError(
            f"record fields first={first}, scores={list(scores)}: {error}") from None
    if start is not None:
        try:
            restored = game_class.from_state_string(start)
        except BurracoError as error:
            raise InvalidStateError(f"record field start={_short(start)}: {error}") from None
        if game is not None and restored.state_string() != game.state_string():
            source = f"seed={seed}" if seed is not None else f"deck={_short(deck)}"
            raise InvalidStateError(
                f"record fields {source} and start={_short(start)} disagree: the start is not "
                f"the position dealt")
        fields = _fields(start)
        expected = {"rules": cast(str, data["rules"]), "first": str(first),
                    "scores": ",".join(str(score) for score in scores)}
        for name, value in expected.items():
            if fields[name] != value:
                raise InvalidStateError(
                    f"record field start has {name}={fields[name]!r}, the record says {value!r}")
        game = restored
    assert game is not None  # _check_record: at least one of seed, deck, start
    moves = cast(list[str], data["moves"])
    for number, move in enumerate(moves, 1):
        if game.is_over():
            raise IllegalMoveError(
                f"record move {number} of {len(moves)} ({move!r}): the hand is already over")
        try:
            game.push(move)
        except IllegalMoveError as error:
            raise IllegalMoveError(
                f"record move {number} of {len(moves)} ({move!r}) is illegal: {error}") from None
        except InvalidNotationError as error:
            raise InvalidNotationError(
                f"record move {number} of {len(moves)} ({move!r}) is not a move: {error}") from None
    replayed = _result_json(game.result()) if game.is_over() else None
    found = _mismatch(data["result"], replayed, "result")
    if found and found[0]:
        raise InvalidNotationError(
            f"record field {found[1]}={_short(_at(data, '.' + found[1]))}: expected "
            f"{_short(_at({'result': replayed}, '.' + found[1]))} (an int is written as an int)")
    if found:
        raise InvalidStateError(
            f"record field result={_short(data['result'], 300)} disagrees with the replay, which "
            f"gives {_short(replayed, 300)}")
    return game


# --- JSON Lines --------------------------------------------------------------------------------


PathOrFile = Union[str, "os.PathLike[str]", IO[str]]


def write_records(path_or_file: PathOrFile, records: Iterable[Mapping[str, Json]]) -> int:
    """Write game records as JSON Lines (one compact JSON object a line) to a path (created or
    overwritten, UTF-8) or an open text file; return how many were written. Each record is checked
    for its format, version and fields first (InvalidNotationError quoting the bad one)."""
    if isinstance(path_or_file, (str, os.PathLike)):
        with open(path_or_file, "w", encoding="utf-8", newline="\n") as file:
            return _write_lines(file, records)
    return _write_lines(path_or_file, records)


def _write_lines(file: IO[str], records: Iterable[Mapping[str, Json]]) -> int:
    count = 0
    for item in records:
        if not isinstance(item, Mapping):
            raise InvalidNotationError(
                f"record {count + 1} ({_short(item)}) is not a game record: expected a dict "
                f"(game.record())")
        data = dict(item)
        try:
            _check_record(data)
        except InvalidNotationError as error:
            raise InvalidNotationError(f"record {count + 1}: {error}") from None
        file.write(json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n")
        count += 1
    return count


def read_records(path_or_file: PathOrFile) -> Iterator[Record]:
    """The game records of a JSON Lines file (a path or an open text file), one dict per line,
    blank lines skipped. Each line is checked for its JSON, format, version and fields
    (InvalidNotationError quoting the line number); replay one with ``Game.from_record``."""
    if isinstance(path_or_file, (str, os.PathLike)):
        return _read_path(path_or_file)
    return _read_lines(path_or_file)


def _read_path(path: str | os.PathLike[str]) -> Iterator[Record]:
    with open(path, encoding="utf-8") as file:
        yield from _read_lines(file)


def _read_lines(file: IO[str] | io.StringIO) -> Iterator[Record]:
    for number, line in enumerate(file, 1):
        if not line.strip():
            continue
        try:
            data = _load_record(line)
            _check_record(data)
        except InvalidNotationError as error:
            raise InvalidNotationError(f"line {number}: {error}") from None
        yield data


# --- JSON views ----------------------------------------------------------------------------------

_VIEW_KEYS = ("format", "version", "player", "rules", "players", "first", "scores", "turn",
              "phase", "seats", "sides", "pile", "top", "stock_size", "stock", "pozzetti", "hold",
              "deadlock", "turn_flags", "soloist", "end_reason", "closing_side", "cut_side",
              "legal_moves", "result", "seed", "observation", "state")


def _sides_of(players: int, sides: int, soloist: int | None) -> list[tuple[int, list[int]]]:
    """The sides in play and their seats (docs/game.md "Seats, sides, packets"): with six players
    seat ``s`` plays for side ``s % sides`` (A B C A B C, or A B A B A B with two sides)."""
    if players == 6:
        return [(side, list(range(side, players, sides))) for side in range(sides)]
    if players == 4:
        return [(0, [0, 2]), (1, [1, 3])]
    if players == 2 or soloist is None:
        return [(seat, [seat]) for seat in range(players)]
    pair = [seat for seat in range(players) if seat != soloist]
    return sorted([(soloist, [soloist]), (3, pair)])


def _meld_json(meld: _Meld) -> Record:
    return {
        "layout": meld.layout,
        "kind": meld.kind,
        "cards": cast(Json, _card_names(meld.cards)),
        "burraco": meld.burraco,
        "points": meld.points,
    }


def view(game: _Game, player: int | None = None) -> Record:
    """The JSON view of ``game`` as a dict: what ``player`` may see (read only from
    ``game.observation(player)``, plus the legal moves when ``player`` is to act), or the whole
    state when ``player`` is None (docs/records.md "JSON views"). Every field is read from one
    snapshot (``game.copy()``), so another thread moving the game meanwhile cannot tear the view
    or show one seat the moves (the cards) of another."""
    game = game.copy()
    observation: _Observation | None = None
    if player is None:
        text = game.state_string()
    else:
        observation = game.observation(player)
        text = str(observation)
    fields = _fields(text)
    rules = game.rules if observation is None else observation.rules
    players = rules.players
    soloist = _int_or_none(fields["split"])
    slots = 4 if players == 3 else rules.sides  # three players: three alone, then the pair's 3
    opening = rules.opening_minimum is not None
    opened = fields["opened"].split(",")
    need = fields["need"].split(",")

    if observation is None:
        hands: list[list[str] | None] = [_card_names(game.hand(seat)) for seat in range(players)]
        sizes = [len(hand) for hand in hands if hand is not None]
        known = [_card_names(game.known(seat)) for seat in range(players)]
        meld_lists = [list(game.melds(slot)) for slot in range(slots)]
        pile = _card_names(game.discard_pile)
        top = game.top_discard
        stock_size = game.stock_size
        stock: list[str] | None = _card_names(game.stock)
        pozzetti: list[Json] = []
        for status, owner, cards in game.pozzetti:
            names = _card_names(cards)
            packet = status in ("untaken", "face_down", "seen")
            pozzetti.append({"status": status, "owner": owner,
                             "size": len(names) if packet else None,
                             "cards": cast(Json, names) if packet else None})
    else:
        own = observation.player
        hands = [_card_names(observation.hand) if seat == own else None
                 for seat in range(players)]
        sizes = list(observation.hand_sizes)
        known = [_card_names(cards) for cards in observation.known]
        meld_lists = [list(observation.melds(slot)) for slot in range(slots)]
        pile = _card_names(observation.discard_pile)
        top = observation.top
        stock_size = observation.stock_size
        stock = None
        pozzetti = [{"status": status, "owner": owner, "size": size,
                     "cards": None if cards is None else cast(Json, _card_names(cards))}
                    for status, owner, size, cards in observation.pozzetti]

    side_of = {seat: side for side, seats in _sides_of(players, rules.sides, soloist) for seat in seats}
    seats: list[Json] = [
        {"seat": seat, "side": side_of[seat], "hand_size": sizes[seat],
         "hand": cast(Json, hands[seat]), "known": cast(Json, known[seat])}
        for seat in range(players)
    ]
    sides: list[Json] = [
        {"side": side, "seats": cast(Json, members),
         "melds": [_meld_json(meld) for meld in meld_lists[side]],
         "opened": opened[side] == "1" if opening else None,
         "need": int(need[side]) if opening else None}
        for side, members in _sides_of(players, rules.sides, soloist)
    ]
    end = fields["end"]
    over = fields["phase"] == "over"
    to_act = not over and (player is None or player == int(fields["turn"]))
    return {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "player": player,
        "rules": fields["rules"],
        "players": players,
        "first": int(fields["first"]),
        "scores": [int(score) for score in fields["scores"].split(",")],
        "turn": int(fields["turn"]),
        "phase": fields["phase"],
        "seats": seats,
        "sides": sides,
        "pile": cast(Json, pile),
        "top": None if top is None else str(top),
        "stock_size": stock_size,
        "stock": cast(Json, stock),
        "pozzetti": pozzetti,
        "hold": None if fields["hold"] == "-" else fields["hold"],
        "deadlock": int(fields["deadlock"]),
        "turn_flags": "" if fields["turnflags"] == "-" else fields["turnflags"],
        "soloist": soloist,
        "end_reason": None if end == "-" else end.partition(":")[0],
        "closing_side": int(end.partition(":")[2]) if end.startswith("closed:") else None,
        "cut_side": _int_or_none(fields["cut"]),
        "legal_moves": [str(move) for move in game.legal_moves()] if to_act else
        ([] if player is None else None),
        "result": _result_json(game.result()) if player is None and over else None,
        "seed": _int_or_none(fields["seed"]) if player is None else None,
        "observation": text if player is not None else None,
        "state": text if player is None else None,
    }


def to_json(game: _Game, player: int | None = None, indent: int | None = None) -> str:
    """``game.to_json(player=None, indent=None)``: the JSON view of ``game`` as a string (see
    :func:`view`); ``indent`` is passed to :func:`json.dumps`."""
    return json.dumps(view(game, player), indent=indent, ensure_ascii=False)


def from_json(game_class: _GameClass[_G], text: object) -> _G:
    """``Game.from_json(text)``: the game of a full JSON view (``game.to_json()``), rebuilt from its
    ``state`` string; InvalidStateError for a player's view (not restorable) or for a structured
    field that contradicts the state string, InvalidNotationError for text that is not a view."""
    if not isinstance(text, (str, bytes)):
        raise InvalidNotationError(f"{_short(text)} is not a JSON view: expected a str")
    try:
        source = _json_text(text)
    except ValueError as error:  # undecodable bytes
        raise InvalidNotationError(f"{_short(text)} is not JSON: {error}") from None
    if _nesting(source) > _VIEW_DEPTH:
        raise InvalidNotationError(
            f"{_short(text)} is not a JSON view: arrays and objects nest deeper than the "
            f"format's {_VIEW_DEPTH} levels")
    try:
        data = json.loads(source)
    except ValueError as error:
        raise InvalidNotationError(f"{_short(text)} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise InvalidNotationError(f"{_short(text)} is not a JSON view: expected an object")
    if data.get("format") != VIEW_FORMAT:
        raise InvalidNotationError(
            f"format {_short(data.get('format'))} is not a JSON view (expected {VIEW_FORMAT!r})")
    if data.get("version") != VIEW_VERSION or not _is_int(data.get("version")):
        raise InvalidNotationError(f"JSON view version {_short(data.get('version'))} is not "
                                   f"supported (this burraco reads version {VIEW_VERSION})")
    if data.get("player") is not None and not _is_int(data.get("player")):
        raise InvalidNotationError(
            f"JSON view field player={_short(data.get('player'))}: expected null (the full view) "
            f"or a seat number")
    if data.get("player") is not None:
        raise InvalidStateError(
            f"player={_short(data.get('player'))}: a player's view hides cards and cannot be "
            f"restored; give the full view (game.to_json() with no player)")
    missing = [key for key in _VIEW_KEYS if key not in data]
    if missing:
        raise InvalidNotationError(f"the JSON view lacks the field(s) {', '.join(missing)}")
    unknown = [key for key in data if key not in _VIEW_KEYS]
    if unknown:
        raise InvalidNotationError(f"the JSON view has unknown field(s) {', '.join(unknown)}")
    state = data["state"]
    if not isinstance(state, str):
        raise InvalidNotationError(f"state={_short(state)}: expected a state string")
    game = game_class.from_state_string(state)
    expected = json.loads(to_json(game))
    for key in _VIEW_KEYS:
        found = _mismatch(data[key], expected[key], key)
        if found and found[0]:
            raise InvalidNotationError(
                f"JSON view field {found[1]}={_short(_at(data, '.' + found[1]))}: expected "
                f"{_short(_at(expected, '.' + found[1]))} (an int is written as an int, a "
                f"boolean as true or false)")
        if found:
            raise InvalidStateError(
                f"JSON view field {key}={_short(data[key], 200)} contradicts its state string "
                f"(which gives {_short(expected[key], 200)})")
    return game
