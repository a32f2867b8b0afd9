/* A native policy written in C for tests/test_native_policy.py that reads past every count of the
 * view, as a cheating policy would, and reports what it found there.
 *
 * In each call it plays as probes.uniform does (a uniform choice from the call's stream) and reads:
 *   - view->moves past move_count, up to the end of the allocation the moves live in (glibc's
 *     malloc_usable_size: the engine's move storage is a heap block of its own);
 *   - view->melds past meld_count, up to BURRACO_MAX_MELDS, the capacity policy.h names.
 * For each call it logs the seat, how many entries it read past the counts, how many of them were
 * not the blank entry docs/native.md promises (every byte zero but the card fields, which are
 * BURRACO_NO_CARD), and the card kinds it read there (card and wild fields, card planes) as a
 * 53-bit mask. The test compares the kinds with the hidden cards of the position.
 *
 * Python side: reset(), calls(), totals() -> (calls, entries read past, not blank),
 * log() -> [(seat, moves read past, melds read past, not blank, kinds mask)], the first LOG calls
 * since reset(). Safe to call from several threads at once (playouts(threads=2)): the counters
 * are atomic and each call owns its log slot. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <burraco/policy.h>
#include <stdatomic.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#define SNOOP_SIZED 1
#else
#define SNOOP_SIZED 0
#endif

#define LOG 65536

typedef struct {
  uint8_t seat;
  uint32_t moves_past, melds_past, not_blank;
  uint64_t kinds;
} entry;

static entry log_entries[LOG];
static atomic_ullong calls, read_past, not_blank_total;

static uint64_t kinds_of(burraco_cards c) {
  uint8_t cards[108];
  uint64_t kinds = 0;
  /* Read whatever the planes hold, even bits no card uses: a garbage plane shows as kinds too. */
  const int n = burraco_cards_list(c, cards);
  for (int i = 0; i < n; ++i) kinds |= (uint64_t)1 << cards[i];
  return kinds;
}

static uint64_t kind_of(uint8_t card) {
  return card < BURRACO_KINDS ? (uint64_t)1 << card : 0;
}

/* 1 if the n bytes at p are all zero. */
static int zero(const unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (p[i]) return 0;
  return 1;
}

static int32_t snoop_choose(const burraco_view* view, burraco_random* random, void* data) {
  (void)data;
  entry e = {view->seat, 0, 0, 0, 0};
  burraco_move blank_move;
  memset(&blank_move, 0, sizeof blank_move);
  blank_move.card = BURRACO_NO_CARD;
  burraco_meld blank_meld;
  memset(&blank_meld, 0, sizeof blank_meld);
  blank_meld.wild = BURRACO_NO_CARD;

  size_t move_capacity = view->move_count, tail_bytes = 0;
#if SNOOP_SIZED
  const size_t bytes = malloc_usable_size((void*)view->moves);
  move_capacity = bytes / sizeof(burraco_move);
  tail_bytes = bytes % sizeof(burraco_move);
#endif
  const unsigned char* base = (const unsigned char*)view->moves;
  for (size_t i = view->move_count; i < move_capacity; ++i) {
    const burraco_move* m = &view->moves[i];
    e.moves_past++;
    e.kinds |= kind_of(m->card) | kinds_of(m->cards);
    if (memcmp(m, &blank_move, sizeof blank_move) != 0) e.not_blank++;
  }
  if (move_capacity > view->move_count && !zero(base + move_capacity * sizeof(burraco_move), tail_bytes))
    e.not_blank++;
  for (size_t i = view->meld_count; i < BURRACO_MAX_MELDS; ++i) {
    const burraco_meld* m = &view->melds[i];
    e.melds_past++;
    e.kinds |= kind_of(m->wild) | kinds_of(m->cards);
    if (memcmp(m, &blank_meld, sizeof blank_meld) != 0) e.not_blank++;
  }
  const unsigned long long call = atomic_fetch_add(&calls, 1);
  atomic_fetch_add(&read_past, e.moves_past + e.melds_past);
  atomic_fetch_add(&not_blank_total, e.not_blank);
  if (call < LOG) log_entries[call] = e;
  return (int32_t)burraco_random_below(random, view->move_count);
}

static burraco_policy descriptor = {BURRACO_POLICY_ABI, sizeof(burraco_policy), "snoop",
                                    snoop_choose, NULL};

/* A descriptor whose name is not UTF-8 (a Latin-1 e-acute): the engine must still make clean
 * errors that quote it. It returns no move's index, so every loop stops with a PolicyError. */
static int32_t refuse_choose(const burraco_view* view, burraco_random* random, void* data) {
  (void)random;
  (void)data;
  return (int32_t)view->move_count;
}

static burraco_policy latin1_descriptor = {BURRACO_POLICY_ABI, sizeof(burraco_policy),
                                           "caf\xe9 \\ bot", refuse_choose, NULL};
/* The same, playing (a uniform choice), to show the name in a policy that works. */
static burraco_policy latin1_player_descriptor = {BURRACO_POLICY_ABI, sizeof(burraco_policy),
                                                  "caf\xe9", snoop_choose, NULL};

static PyObject* reset(PyObject* self, PyObject* args) {
  (void)self;
  (void)args;
  atomic_store(&calls, 0);
  atomic_store(&read_past, 0);
  atomic_store(&not_blank_total, 0);
  Py_RETURN_NONE;
}

static PyObject* totals(PyObject* self, PyObject* args) {
  (void)self;
  (void)args;
  return Py_BuildValue("(KKK)", (unsigned long long)atomic_load(&calls),
                       (unsigned long long)atomic_load(&read_past),
                       (unsigned long long)atomic_load(&not_blank_total));
}

static PyObject* get_log(PyObject* self, PyObject* args) {
  (void)self;
  (void)args;
  unsigned long long n = atomic_load(&calls);
  if (n > LOG) n = LOG;
  PyObject* list = PyList_New((Py_ssize_t)n);
  if (list == NULL) return NULL;
  for (unsigned long long i = 0; i < n; ++i) {
    const entry* e = &log_entries[i];
    PyObject* item = Py_BuildValue("(IIIIK)", (unsigned)e->seat, e->moves_past, e->melds_past,
                                   e->not_blank, (unsigned long long)e->kinds);
    if (item == NULL) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, item);
  }
  return list;
}

static PyMethodDef methods[] = {
    {"reset", reset, METH_NOARGS, "Clears the counters and the log."},
    {"totals", totals, METH_NOARGS, "(calls, entries read past the counts, entries not blank)."},
    {"log", get_log, METH_NOARGS, "[(seat, moves read past, melds read past, not blank, kinds)]."},
    {NULL, NULL, 0, NULL}};

static PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "snoop",
                                 "A C policy that reads past every count of its view.", -1,
                                 methods, NULL, NULL, NULL, NULL};

static int add_capsule(PyObject* module, const char* name, burraco_policy* policy) {
  PyObject* capsule = PyCapsule_New(policy, BURRACO_POLICY_CAPSULE, NULL);
  if (capsule == NULL) return -1;
  if (PyModule_AddObject(module, name, capsule) < 0) {
    Py_DECREF(capsule);
    return -1;
  }
  return 0;
}

PyMODINIT_FUNC PyInit_snoop(void) {
  PyObject* module = PyModule_Create(&module_def);
  if (module == NULL) return NULL;
  if (add_capsule(module, "policy", &descriptor) < 0 ||
      add_capsule(module, "latin1", &latin1_descriptor) < 0 ||
      add_capsule(module, "latin1_player", &latin1_player_descriptor) < 0 ||
      PyModule_AddIntConstant(module, "SIZED_BY_ALLOCATOR", SNOOP_SIZED) < 0 ||
      PyModule_AddIntConstant(module, "LOG", LOG) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
