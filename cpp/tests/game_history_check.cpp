// burraco_selftest: a whole hand played, undone and recorded through burraco::Game
// (burraco/history.hpp, burraco/record.hpp) with no Python: push and pop give back every position
// passed, copies share a history and then go their own ways, truncate cuts a history back, the
// lay-off sugar finds a legal order, no position comes back within a turn (RULES H-38: which is
// why the policies choose among all the legal moves), and the record line holds the deal, the moves and the result; a deck order deals or says why not, and the
// names and reprs of a hand's values (burraco/game_text.hpp) are the Python API's.
#include <array>
#include <cstdio>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "burraco/game_text.hpp"
#include "burraco/history.hpp"
#include "burraco/record.hpp"
#include "burraco/rng.hpp"
#include "burraco/rules.hpp"

using namespace burraco;

namespace {

int failures = 0;
#define GAME_CHECK(cond) COUNT_CHECK(failures, cond)

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void check_hand(std::string_view preset, std::uint64_t seed) {
  const auto rules = std::make_shared<const Rules>(*preset_rules(preset));
  const GameState dealt = deal_seeded(*rules, seed, 0, {});
  Game game(dealt, rules);
  GAME_CHECK(game.move_count() == 0 && &game.start() == &game.state);
  // Play to the end, choosing at random, keeping every position; the turn's first one is
  // positions[turn_start].
  Rng rng(seed);
  std::vector<GameState> positions{game.state};
  std::vector<Move> played, legal;
  std::size_t turn_start = 0;
  Game copy_at_half;
  while (!game.state.over()) {
    legal_moves(game.state, *rules, legal);
    GAME_CHECK(!legal.empty());
    if (legal.empty()) return;
    const Move m = legal[rng.bounded(legal.size())];
    const int seat = game.state.turn;
    GAME_CHECK(game.push(m).ok());
    played.push_back(m);
    if (game.state.turn != seat) turn_start = positions.size();
    // Every legal move leads to a position the turn has not had.
    for (std::size_t k = turn_start; k < positions.size(); ++k) GAME_CHECK(!(positions[k] == game.state));
    positions.push_back(game.state);
    if (played.size() == 40) copy_at_half = game;
  }
  GAME_CHECK(game.move_count() == played.size() && game.moves() == played);
  GAME_CHECK(game.start() == dealt);
  // An illegal move changes nothing.
  Move draw;
  GAME_CHECK(!game.push(draw).ok() && game.move_count() == played.size());

  // The record line: the seed deals the start; every move in order; the result.
  const std::string line = record_line(game);
  GAME_CHECK(line.rfind("{\"format\":\"burraco-record\",\"version\":1,\"rules\":\"" +
                            rules_text(*rules) + "\"", 0) == 0);
  GAME_CHECK(contains(line, ",\"seed\":" + std::to_string(seed) + ",\"deck\":null,\"start\":null,"));
  std::string moves = "\"moves\":[";
  for (std::size_t i = 0; i < played.size(); ++i) moves += (i ? ",\"" : "\"") + move_text(played[i]) + "\"";
  GAME_CHECK(contains(line, moves + "],\"result\":{\"end_reason\":"));
  const HandResult result = score_hand(game.state, *rules);
  GAME_CHECK(contains(line, "\"total\":" + std::to_string(result.sides[0].total)));
  GAME_CHECK(line.size() >= 2 && line.compare(line.size() - 2, 2, "}}") == 0);

  // The copy made at move 40 shares that history and goes its own way.
  if (played.size() > 40) {
    GAME_CHECK(copy_at_half.move_count() == 40 && copy_at_half.state == positions[40]);
    const Move undone = copy_at_half.pop();
    GAME_CHECK(undone == played[39] && copy_at_half.state == positions[39]);
    GAME_CHECK(game.move_count() == played.size() && game.state == positions.back());
    // A record line while the hand goes on: no result.
    GAME_CHECK(contains(record_line(copy_at_half), "],\"result\":null}"));
  }

  // Pop back to the deal: every position comes back; then truncate a replayed history.
  Game replay = game;
  for (std::size_t n = played.size(); n-- > 0;) {
    const Move undone = game.pop();
    GAME_CHECK(undone == played[n] && game.state == positions[n] && game.move_count() == n);
  }
  GAME_CHECK(game.state == dealt && game.moves().empty());
  GAME_CHECK(replay.move_count() == played.size() && replay.state == positions.back());
  const std::size_t keep = played.size() / 3;
  replay.truncate(keep, positions[keep]);
  GAME_CHECK(replay.move_count() == keep && replay.state == positions[keep]);
  for (std::size_t i = keep; i < played.size(); ++i) GAME_CHECK(replay.push(played[i]).ok());
  GAME_CHECK(replay.state == positions.back() && replay.moves() == played);
  Game again(dealt, rules);
  for (const Move& m : played) again.push(m);
  GAME_CHECK(again == replay && record_line(again) == line);

  // A game that starts from a position other than a deal is recorded by its state string.
  Game later(positions[played.size() / 2], rules);
  GAME_CHECK(contains(record_line(later), ",\"seed\":null,\"deck\":null,\"start\":\"" +
                                               state_string(later.state, *rules) + "\""));
}

// "add 0 ..." with several cards: the first legal order of single lay-offs, or nothing changed.
void check_lay_offs() {
  const auto rules = std::make_shared<const Rules>(*preset_rules("italian"));
  Game game(deal_seeded(*rules, 5, 0, {}), rules);
  std::vector<Move> legal;
  // Play until the seat to act has a meld on the table and a card it may lay off on it.
  Rng rng(5);
  for (int guard = 0; guard < 2000 && !game.state.over(); ++guard) {
    legal_moves(game.state, *rules, legal);
    std::vector<Card> lay_offs;
    for (const Move& m : legal)
      if (m.kind == MoveKind::Add && m.index == 0) lay_offs.push_back(m.card);
    if (lay_offs.size() >= 2) {
      const GameState before = game.state;
      const std::size_t count = game.move_count();
      std::vector<Card> two{lay_offs.back(), lay_offs.front()};
      if (game.push_lay_offs(0, two)) {
        GAME_CHECK(game.move_count() == count + 2);
        GAME_CHECK(game.pop().kind == MoveKind::Add && game.pop().kind == MoveKind::Add);
        GAME_CHECK(game.state == before);
      } else {
        GAME_CHECK(game.move_count() == count && game.state == before);
      }
      // A card the hand does not hold: no order is legal, and nothing changes.
      Card absent = Card::joker();
      for (int k = 0; k < kKinds; ++k)
        if (game.state.hands[game.state.turn].count(Card(static_cast<std::uint8_t>(k))) == 0) {
          absent = Card(static_cast<std::uint8_t>(k));
          break;
        }
      GAME_CHECK(!game.push_lay_offs(0, {lay_offs.front(), absent}));
      GAME_CHECK(game.move_count() == count && game.state == before);
      return;
    }
    game.push(legal[rng.bounded(legal.size())]);
  }
  const bool reached_two_lay_offs = false;  // every seeded hand reaches one long before
  GAME_CHECK(reached_two_lay_offs);
}

// A deal from a deck order, the card words of a deck and the lay-off notation.
void check_deck_and_notation() {
  const Rules rules = *preset_rules("italian");
  std::array<Card, kMaxDeck> order{};
  const int n = unshuffled_deck(rules, order);
  std::vector<Card> cards(order.begin(), order.begin() + n);
  GameState dealt;
  GAME_CHECK(deal_deck(rules, cards, 1, {}, dealt).empty() && dealt == deal(rules, order, 1, {}));
  cards.pop_back();
  GameState untouched = dealt;
  GAME_CHECK(deal_deck(rules, cards, 0, {}, untouched) ==
             "expected the 108 cards of these rules' deck, each once, got 107 cards that do not "
             "match");
  GAME_CHECK(untouched == dealt);
  std::vector<Card> words;
  GAME_CHECK(!parse_card_words(" Ah  2c ", words) && words.size() == 2);
  GAME_CHECK(card_name(words[1]) == "2c");
  words.clear();
  GAME_CHECK(parse_card_words("Ah Zz 2c", words) == std::optional<std::string_view>("Zz"));
  GAME_CHECK(words.size() == 1);
  std::uint32_t index = 0;
  std::vector<Card> lay_offs;
  GAME_CHECK(parse_lay_offs("add 2 8h 9h Jk", 2, index, lay_offs) && index == 2);
  GAME_CHECK(lay_offs.size() == 3 && card_name(lay_offs[0]) == "8h");
  for (const char* other :
       {"add 2 8h", "add 2 8h Zz", "add x 8h 9h", "meld 5h 6h 7h", "pile 8h 9h"})
    GAME_CHECK(!parse_lay_offs(other, 2, index, lay_offs));
}

// The names and reprs the binding shows for a hand's values, played to the end under `preset`.
void check_texts(std::string_view preset) {
  const auto rules = std::make_shared<const Rules>(*preset_rules(preset));
  Game game(deal_seeded(*rules, 11, 0, {}), rules);
  GAME_CHECK(std::string(phase_text(game.state.phase)) == "draw");
  GAME_CHECK(end_reason_text(game.state.end) == nullptr);
  GAME_CHECK(std::string(packet_status_text(game.state.packets[0].status)) == "untaken");
  // A discard before drawing is refused; its message names the move and the reason.
  Move discard;
  discard.kind = MoveKind::Discard;
  game.state.hands[0].for_each([&](Card c) { discard.card = c; });
  const MoveResult refused = game.push(discard);
  GAME_CHECK(!refused.ok());
  const std::string why(move_error_text(refused.error));
  GAME_CHECK(illegal_move_text(discard, refused) ==
             "illegal move '" + move_text(discard) + "': " + why);
  GAME_CHECK(std::string(move_kind_text(discard.kind)) == "discard");
  GAME_CHECK(move_repr(discard) == "Move('" + move_text(discard) + "')");
  std::vector<Move> legal;
  legal_moves(game.state, *rules, legal);
  std::string listed = "[";
  for (std::size_t i = 0; i < legal.size(); ++i) listed += (i ? ", " : "") + move_repr(legal[i]);
  GAME_CHECK(moves_repr({}) == "[]" && moves_repr(legal) == listed + "]");
  const std::vector<std::string> texts = move_texts(legal);
  GAME_CHECK(texts.size() == legal.size() && texts[0] == move_text(legal[0]));
  const std::string state = state_string(game.state, *rules);
  GAME_CHECK(game_repr(game.state, *rules) == "Game.from_state_string('" + state + "')");
  Rng rng(11);
  while (!game.state.over()) {
    legal_moves(game.state, *rules, legal);
    game.push(legal[rng.bounded(legal.size())]);
  }
  GAME_CHECK(std::string(phase_text(game.state.phase)) == "over");
  const HandResult r = score_hand(game.state, *rules);
  const SideResult& s = r.sides[0];
  auto field = [](const char* name, int value) {
    return std::string(name) + std::to_string(value);
  };
  GAME_CHECK(side_result_repr(s) ==
             field("SideResult(side=", s.side) + field(", melds=", s.melds) +
                 field(", bonuses=", s.bonuses) + field(", closing=", s.closing) +
                 field(", hand=", s.hand) + field(", pozzetto=", s.pozzetto) +
                 field(", cut=", s.cut) + field(", total=", s.total) + ")");
  const std::string repr = result_repr(r, game.state.players);
  const std::string reason = end_reason_text(r.reason);
  GAME_CHECK(repr.rfind("Result(end_reason='" + reason + "', closing_side=", 0) == 0);
  GAME_CHECK(contains(repr, ", sides=(" + side_result_repr(s) + (r.side_count > 1 ? ", " : ")")));
  std::string scores = "None";
  if (game.state.players == 3)
    scores = field("(", r.player_half_points[0]) + field(", ", r.player_half_points[1]) +
             field(", ", r.player_half_points[2]) + ")";
  GAME_CHECK(contains(repr, "), player_scores=" + scores + ")") && repr.back() == ')');
}

}  // namespace

// Called by selftest.cpp's main; returns the number of failed checks.
int check_game_history() {
  for (const auto& preset : kPresetNames)  // every preset of the table (rules.hpp)
    for (std::uint64_t seed = 1; seed <= 3; ++seed) check_hand(preset, seed);
  check_lay_offs();
  check_deck_and_notation();
  for (const auto& preset : kPresetNames) check_texts(preset);
  std::printf("selftest: burraco::Game played, popped and recorded %zu hands\n", 3 * kPresetNames.size());
  return failures;
}
