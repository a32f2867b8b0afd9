#include "burraco/native.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "burraco/observation.hpp"

namespace burraco {

// The C enums of policy.h are the engine's own, value for value.
static_assert(static_cast<int>(MoveKind::Draw) == BURRACO_DRAW && static_cast<int>(MoveKind::Pile) == BURRACO_PILE &&
              static_cast<int>(MoveKind::Keep) == BURRACO_KEEP && static_cast<int>(MoveKind::Reject) == BURRACO_REJECT &&
              static_cast<int>(MoveKind::Meld) == BURRACO_MELD && static_cast<int>(MoveKind::Add) == BURRACO_ADD &&
              static_cast<int>(MoveKind::Discard) == BURRACO_DISCARD);
static_assert(static_cast<int>(Phase::Draw) == BURRACO_PHASE_DRAW && static_cast<int>(Phase::Meld) == BURRACO_PHASE_MELD);
static_assert(static_cast<int>(MeldKind::Set) == BURRACO_SET && static_cast<int>(MeldKind::Run) == BURRACO_RUN);
static_assert(static_cast<int>(WildState::InSet) == BURRACO_WILD_IN_SET &&
              static_cast<int>(WildState::Orphan) == BURRACO_WILD_ORPHAN &&
              static_cast<int>(WildState::FreeHigh) == BURRACO_WILD_FREE_HIGH &&
              static_cast<int>(WildState::FreeLow) == BURRACO_WILD_FREE_LOW &&
              static_cast<int>(WildState::Bound) == BURRACO_WILD_BOUND);
static_assert(static_cast<int>(BurracoClass::Clean) == BURRACO_CLEAN &&
              static_cast<int>(BurracoClass::SemiClean) == BURRACO_SEMI_CLEAN &&
              static_cast<int>(BurracoClass::Dirty) == BURRACO_DIRTY);
static_assert(static_cast<int>(PacketStatus::Untaken) == BURRACO_PACKET_UNTAKEN &&
              static_cast<int>(PacketStatus::FaceDown) == BURRACO_PACKET_FACE_DOWN &&
              static_cast<int>(PacketStatus::Seen) == BURRACO_PACKET_SEEN &&
              static_cast<int>(PacketStatus::InHand) == BURRACO_PACKET_IN_HAND &&
              static_cast<int>(PacketStatus::Stock) == BURRACO_PACKET_STOCK);
// The interface carries 2, 3 or 4 players and two packets; six-player games are refused (choose).
static_assert(kMaxPlayers >= BURRACO_MAX_PLAYERS && kSideSlots == BURRACO_MAX_PLAYERS &&
              kMaxMelds == BURRACO_MAX_MELDS && kKinds == BURRACO_KINDS && kJoker == BURRACO_JOKER &&
              kNoCard == BURRACO_NO_CARD && kPackets >= 2);
// Melds are compared by their bytes (a Meld has no padding, so equal values have equal bytes);
// the rules too, by the bytes of a copy made with memcpy.
static_assert(std::has_unique_object_representations_v<Meld>);
static_assert(std::is_trivially_copyable_v<Rules>);
static_assert(std::is_standard_layout_v<burraco_policy> && offsetof(burraco_policy, abi) == 0 &&
              offsetof(burraco_policy, size) == 4);

std::string check_native_policy(const burraco_policy* descriptor) {
  if (descriptor == nullptr) return "the policy capsule holds a null pointer";
  if (descriptor->abi != BURRACO_POLICY_ABI)
    return "it was compiled against burraco policy interface version " + std::to_string(descriptor->abi) +
           ", and this burraco provides version " + std::to_string(BURRACO_POLICY_ABI) +
           ": rebuild it against this burraco (burraco.get_include())";
  if (descriptor->size != sizeof(burraco_policy))
    return "its burraco_policy is " + std::to_string(descriptor->size) + " bytes, not the " +
           std::to_string(sizeof(burraco_policy)) + " of interface version " +
           std::to_string(BURRACO_POLICY_ABI) + ": it was not built from this version's policy.h";
  if (descriptor->choose == nullptr) return "its choose function is null";
  return "";
}

namespace {

// The length of the well-formed UTF-8 sequence at p[i], p[size] the end (RFC 3629): 0 if none
// starts there (a stray continuation byte, an overlong form, a surrogate, a truncated sequence).
std::size_t utf8_length(const unsigned char* p, std::size_t i, std::size_t size) {
  const unsigned char c = p[i];
  if (c < 0x80) return 1;
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    lo = c == 0xE0 ? 0xA0 : 0x80;
    hi = c == 0xED ? 0x9F : 0xBF;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    lo = c == 0xF0 ? 0x90 : 0x80;
    hi = c == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 0;
  }
  if (length > size - i || p[i + 1] < lo || p[i + 1] > hi) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if ((p[i + k] & 0xC0) != 0x80) return 0;
  return length;
}

// A descriptor's name as text: its bytes when they are UTF-8, else each byte that is not part of
// a UTF-8 sequence as \xNN (what Python's bytes.decode('utf-8', 'backslashreplace') gives), so
// that every message naming the policy is valid text and quotes the name.
std::string name_text(const char* name) {
  if (name == nullptr) return "(unnamed)";
  const auto* p = reinterpret_cast<const unsigned char*>(name);
  const std::size_t size = std::strlen(name);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(size);
  for (std::size_t i = 0; i < size;) {
    if (const std::size_t length = utf8_length(p, i, size); length > 0) {
      out.append(name + i, length);
      i += length;
    } else {
      out += "\\x";
      out += kHex[p[i] >> 4];
      out += kHex[p[i] & 15];
      ++i;
    }
  }
  return out;
}

// What lies past a count in the view: no card, no meld, nothing of any call.
constexpr burraco_move kBlankMove{.kind = 0, .card = BURRACO_NO_CARD, .reserved = 0, .meld = 0, .cards = {0, 0}};
constexpr burraco_meld kBlankMeld{.cards = {0, 0}, .side = 0, .index = 0, .kind = 0, .suit = 0, .rank = 0,
                                  .lo = 0, .hi = 0, .wild_slot = 0, .wild = BURRACO_NO_CARD,
                                  .wild_state = 0, .burraco = 0, .size = 0, .points = 0, .bonus = 0};

}  // namespace

NativePolicy::NativePolicy(const burraco_policy* descriptor)
    : descriptor_(descriptor), name_(name_text(descriptor->name)) {}

MoveBuffer::~MoveBuffer() { std::free(data_); }

void MoveBuffer::grow(std::size_t count) {
  const std::size_t capacity = std::max<std::size_t>({count, 2 * capacity_, 64});
  auto* block = static_cast<burraco_move*>(std::malloc(capacity * sizeof(burraco_move)));
  if (block == nullptr) throw std::bad_alloc();
  std::size_t bytes = capacity * sizeof(burraco_move);
#if defined(__GLIBC__)
  bytes = malloc_usable_size(block);  // the whole block is the policy's to read: all of it blank
#endif
  std::free(data_);
  data_ = block;
  capacity_ = bytes / sizeof(burraco_move);
  std::fill(data_, data_ + capacity_, kBlankMove);
  std::memset(reinterpret_cast<unsigned char*>(data_) + capacity_ * sizeof(burraco_move), 0,
              bytes - capacity_ * sizeof(burraco_move));
}

void MoveBuffer::blank(std::size_t from, std::size_t to) { std::fill(data_ + from, data_ + to, kBlankMove); }

// What no call changes: the version, the sizes, the reserved fields (zero) and where the melds
// and the rules block are.
ViewStorage::ViewStorage() {
  melds.fill(kBlankMeld);
  view.abi = BURRACO_POLICY_ABI;
  view.size = sizeof(burraco_view);
  view.melds = melds.data();
  view.rules = &rules;
}

namespace {

burraco_cards planes(CardSet c) { return burraco_cards{c.one(), c.two()}; }

void fill_rules(const Rules& r, burraco_rules& out) {
  out.players = static_cast<std::uint8_t>(r.players);
  out.decks = static_cast<std::uint8_t>(r.decks);
  out.jokers = static_cast<std::uint8_t>(r.jokers);
  out.hand_size = static_cast<std::uint8_t>(r.hand_size);
  out.closing_requires_pozzetto = r.closing_requires_pozzetto;
  out.closing_requires_clean = r.closing_requires_burraco == ClosingBurraco::Clean;
  out.pile_take_requires_meld = r.pile_take_requires_meld;
  out.stock_end_threshold = static_cast<std::uint8_t>(r.stock_end_threshold);
  out.closing_bonus = static_cast<std::int16_t>(r.closing_bonus);
  out.clean_bonus = static_cast<std::int16_t>(r.clean_burraco_bonus);
  out.semi_clean_bonus =
      static_cast<std::int16_t>(r.semi_clean_burraco_bonus == kNone ? r.dirty_burraco_bonus : r.semi_clean_burraco_bonus);
  out.dirty_bonus = static_cast<std::int16_t>(r.dirty_burraco_bonus);
  out.no_pozzetto_penalty = static_cast<std::int16_t>(r.no_pozzetto_penalty);
  for (int k = 0; k < kKinds; ++k)
    out.card_points[k] = static_cast<std::int16_t>(r.card_points(Card(static_cast<std::uint8_t>(k))));
  out.match_target = r.match_target;
}


void fill_meld(const Meld& m, const Rules& rules, burraco_meld& out) {
  out.cards = planes(m.cards);
  out.kind = static_cast<std::uint8_t>(m.kind);
  out.suit = m.suit;
  out.rank = m.rank;
  out.lo = m.lo;
  out.hi = m.hi;
  out.wild_slot = m.wild_slot;
  out.wild = m.wild.index;
  out.wild_state = static_cast<std::uint8_t>(m.wild_state);
  out.size = static_cast<std::uint8_t>(m.size());
  if (out.size >= 7) {
    out.burraco = static_cast<std::uint8_t>(m.classify(rules));
    out.bonus = static_cast<std::int16_t>(m.bonus(rules));
  } else {
    out.burraco = BURRACO_NOT_BURRACO;
    out.bonus = 0;
  }
  out.points = static_cast<std::int16_t>(m.points(rules));
}

}  // namespace

void fill_view(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
               ViewStorage& storage) {
  burraco_view& v = storage.view;
  // The rules block and the melds' classification depend on the rules only: kept while the
  // rules are equal to those they were made for.
  // Compared by their bytes: the same unchanged Rules always matches, and equal bytes are equal
  // rules (a copy with other padding only costs a refill).
  const bool same_rules =
      storage.rules_ready && std::memcmp(&storage.rules_copy, &rules, sizeof(Rules)) == 0;
  if (!same_rules) {
    fill_rules(rules, storage.rules);
    std::memcpy(static_cast<void*>(&storage.rules_copy), &rules, sizeof(Rules));
    storage.rules_ready = true;
    storage.cached_melds = 0;
  }
  const int seat = s.turn;
  v.players = s.players;
  v.seat = static_cast<std::uint8_t>(seat);
  v.phase = static_cast<std::uint8_t>(s.phase);
  for (int q = 0; q < BURRACO_MAX_PLAYERS; ++q) {
    const bool in_play = q < s.players;
    v.sides[q] = in_play ? static_cast<std::uint8_t>(side_of(s, rules, q)) : 0;
    v.hand_sizes[q] = in_play ? static_cast<std::uint8_t>(s.hands[q].size()) : 0;
    v.known[q] = planes(in_play ? s.known[q] : CardSet{});
    v.opened[q] = s.opened[q];
    v.need[q] = s.need[q];
    v.scores[q] = s.scores[q];
  }
  v.side = v.sides[seat];
  v.first = s.first;
  v.flags = s.flags;
  v.hold = s.hold.index;
  v.top = s.pile_size ? s.top.index : kNoCard;
  v.pile_size = s.pile_size;
  v.stock_size = static_cast<std::uint8_t>(s.stock_size());
  v.meld_count = s.meld_count;
  v.deadlock = s.deadlock;
  v.hand = planes(s.hands[seat]);
  v.pile = planes(s.pile);
  for (int k = 0; k < 2; ++k) {  // the interface's two packets (six players are refused)
    const Packet& p = s.packets[k];
    burraco_packet& out = v.packets[k];
    out.status = static_cast<std::uint8_t>(p.status);
    out.owner = p.owner;
    out.size = p.size;
    out.cards = planes(packet_visible(s, seat, k) ? p.set() : CardSet{});
  }
  // A meld changes only when a card is laid off on it, and one move changes at most one: the
  // entries of the melds unchanged since the last call on this thread are kept.
  std::array<std::uint8_t, kSideSlots> per_side{};
  for (int i = 0; i < s.meld_count; ++i) {
    const Meld& m = s.melds[i];
    burraco_meld& out = storage.melds[i];
    const std::uint8_t side = s.meld_side[i];
    if (i >= storage.cached_melds || std::memcmp(&storage.meld_keys[i], &m, sizeof(Meld)) != 0) {
      fill_meld(m, rules, out);
      storage.meld_keys[i] = m;
    }
    out.side = side;
    out.index = per_side[side]++;
  }
  // Fewer melds than the last view showed (another position, hand or game): the entries past
  // meld_count are blanked, and no longer cached.
  if (s.meld_count < storage.shown_melds) {
    std::fill(storage.melds.begin() + s.meld_count, storage.melds.begin() + storage.shown_melds, kBlankMeld);
    storage.cached_melds = s.meld_count;
  }
  storage.shown_melds = s.meld_count;
  storage.cached_melds = std::max<int>(storage.cached_melds, s.meld_count);
  burraco_move* moves_out = storage.moves.take(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move& m = moves[i];
    burraco_move& out = moves_out[i];
    out.kind = static_cast<std::uint8_t>(m.kind);
    out.card = m.card.index;
    out.meld = m.index;  // `reserved` stays the blank entry's 0
    out.cards = planes(m.cards);
  }
  v.moves = moves_out;
  v.move_count = static_cast<std::uint32_t>(moves.size());
}

std::int64_t NativePolicy::choose(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                                  std::uint64_t random) const {
  // Its seats, sides and packets are those of 2, 3 or 4 players: six players are refused too.
  if (rules.players > BURRACO_MAX_PLAYERS)
    throw PolicyError("native policy '" + name_ + "' cannot play " + rules_text(rules) +
                      ": the native policy interface (policy.h, version " +
                      std::to_string(BURRACO_POLICY_ABI) + ") carries 2, 3 or 4 players, not the "
                      "six players of these rules (players=6)");
  // The interface's card planes hold two copies of a card and four jokers: a three-deck game
  // cannot be shown to the policy (docs/native.md).
  if (rules.decks > kTwoDeckCopies || rules.jokers > kTwoDeckJokers)
    throw PolicyError("native policy '" + name_ + "' cannot play " + rules_text(rules) +
                      ": the native policy interface (policy.h, version " +
                      std::to_string(BURRACO_POLICY_ABI) + ") carries two-deck games only, and "
                      "these rules have decks=" + std::to_string(rules.decks) + ", jokers=" +
                      std::to_string(rules.jokers));
  thread_local ViewStorage storage;  // a policy may run on many threads at once
  fill_view(s, rules, moves, storage);
  burraco_random stream{random};
  return descriptor_->choose(&storage.view, &stream, descriptor_->data);
}

std::uint64_t repeat_view(const GameState& s, const Rules& rules, long long calls) {
  std::vector<Move> moves;
  legal_moves(s, rules, moves);
  ViewStorage storage;
  std::uint64_t seen = 0;
  for (long long i = 0; i < calls; ++i) {
    fill_view(s, rules, moves, storage);
    seen += storage.view.move_count + storage.view.meld_count;
  }
  return seen;
}

}  // namespace burraco
