# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The move generator's search compiled to C: the same algorithm as the pure
Python one in movegen.py, step for step, so it finds the same plays in the
same order (the tests hold both to that, and to a brute-force search).

Built by `pip install .` where a C compiler is found (setup.py); without one
`lexitrain.engine.movegen` runs its pure Python search. Where the Python one
passes tuples and small ints down its recursion, this one keeps the word in
one buffer and the masks in C integers, and needs no memo: a cross-check or
a walk through a run of board tiles costs less than looking one up.
"""

cimport cython
from cpython.mem cimport (PyMem_Free, PyMem_Malloc, PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc,
                          PyMem_Realloc)
from cpython.pycapsule cimport PyCapsule_New
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memcmp, memcpy, memmove, memset

from lexitrain.engine._live_api cimport LiveApi

from array import array

cdef extern from *:
    """
    static inline int lowest_bit(unsigned long long x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_ctzll(x);
    #else
        int n = 0;
        while (!(x & 1ULL)) { x >>= 1; n++; }
        return n;
    #endif
    }
    """
    int lowest_bit(unsigned long long x) nogil

cdef extern from *:
    """
    /* A play of the caller's tuple subclass (ScoredPlay), made in place:
       tuple_subtype_new's way, without the tuple it would copy from. */
    static PyObject* new_play(PyObject* cls, long row, long col, int down, PyObject* letters,
                              unsigned long long through, long score) {
        PyTypeObject* type = (PyTypeObject*)cls;
        PyObject* play = type->tp_alloc(type, 6);
        PyObject* items[4];
        if (play == NULL) return NULL;
        items[0] = PyLong_FromLong(row);
        items[1] = PyLong_FromLong(col);
        items[2] = PyLong_FromUnsignedLongLong(through);
        items[3] = PyLong_FromLong(score);
        if (!items[0] || !items[1] || !items[2] || !items[3]) {
            Py_XDECREF(items[0]); Py_XDECREF(items[1]); Py_XDECREF(items[2]); Py_XDECREF(items[3]);
            Py_DECREF(play);
            return NULL;
        }
        PyTuple_SET_ITEM(play, 0, items[0]);
        PyTuple_SET_ITEM(play, 1, items[1]);
        Py_INCREF(down ? Py_True : Py_False);
        PyTuple_SET_ITEM(play, 2, down ? Py_True : Py_False);
        Py_INCREF(letters);
        PyTuple_SET_ITEM(play, 3, letters);
        PyTuple_SET_ITEM(play, 4, items[2]);
        PyTuple_SET_ITEM(play, 5, items[3]);
        return play;
    }
    """
    object new_play(object cls, long row, long col, int down, object letters, unsigned long long through,
                    long score)

cdef enum:
    EMPTY = -1
    BLANK_FLAG = 128
    LETTER_MASK = 127
    FIELDS = 3          # words of a node record before its edges (see lexicon/graph.py)
    MAX_LINE = 64       # longest row or column the search handles
    MAX_RACK = 16       # most tiles on a rack
    MAX_LETTERS = 32    # widest tile set (masks are 32-bit)
    FLAT_FIELDS = 7     # ints before a play's tiles in `find_flat`'s array
    BOARD_STATE = 7     # buffers of a direction's board state (see _Search.board_state)

#: limits the caller checks before choosing this search
LIMITS = {"line": MAX_LINE, "rack": MAX_RACK, "letters": MAX_LETTERS}


cdef struct Found:
    # a play as found: where it starts, its tiles (tile numbers), which of
    # its squares held a tile already, and its score
    int row, col
    bint down
    int length
    uint64_t through
    long score
    uint32_t rem                       # the rack slots it keeps (kept only for the plays tied at the best)
    unsigned char tiles[MAX_LINE]


cdef struct Left:
    # a word start made from the rack: its node, the rack slots it leaves,
    # the letters that would end a word after it and those two steps on,
    # the letters the rack can put next (its group) and its tiles
    uint32_t node
    uint32_t rem
    uint32_t ends
    uint32_t next2
    uint32_t can
    int group
    int length
    int tiles[MAX_RACK]


cdef struct Shape:
    # the board and the rules the search needs of it: its size, its centre square (flat) for the first
    # play, the bingo bonus and the tiles a rack holds
    int rows
    int cols
    int centre
    int bingo
    int rack_size


cdef struct Turn:
    # what the choice of a best move needs beyond the board and the rack: the tiles in the bag, whether
    # they allow an exchange, and a ticket drawing among the plays tied at the best (-1: none)
    int bag
    bint may_exchange
    long long ticket


cdef struct Rules:
    # how a simulation's playouts go on: the moves after the candidate, the fewest tiles in the bag that
    # allow an exchange, and the mover's spread before the candidate
    int plies
    int exchange_limit
    long spread


cdef struct WordBits:
    # the word map (see WordMap): a multiset of tiles' key is the sum of its tiles' `key`s; `made[0]` has
    # the bit of every word's key set, `made[1]` the bit of every key a word's less one of its letters
    uint64_t key[MAX_LETTERS]
    uint64_t* made[2]
    int bits[2]


cdef struct Ranked:
    # an anchor's plays from word starts of one length to search, by the bound on their equity (see
    # _Search.shadow)
    long bound
    int square
    int down
    int k       # the word start's length (the squares left of the anchor the plays fill)
    int number  # the anchor's bounds by word start length: k_bounds[number * 2 * MAX_RACK:] (see shadow)


cdef struct LineBest:
    # the best play from the anchors of one line (see Playout.line_bests)
    bint have
    long equity
    long score
    uint32_t rem
    Found play


cdef extern from *:
    """
    #define NO_PLAY (-(1L << 40))  /* a bound where no play is found */
    #define NO_CAP (1L << 40)      /* no bound on a score */
    """
    long NO_PLAY
    long NO_CAP


cdef extern from *:
    """
    static inline unsigned long long word_bit(unsigned long long key, int bits) {
        return (key * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
    }
    """
    unsigned long long word_bit(unsigned long long key, int bits) nogil


cdef inline bint _made(const WordBits* w, uint64_t key, int blanks) noexcept nogil:
    """Might these tiles (their key; `blanks` blanks besides) make a word? Never no where they do (a
    yes may be a collision of keys, one in 50 or so: a bound stays sound, only looser)."""
    cdef uint64_t bit
    if w == NULL or blanks > 1:
        return True
    bit = word_bit(key, w.bits[blanks])
    return (w.made[blanks][bit >> 6] >> (bit & 63)) & 1


cdef class WordMap:
    """Which multisets of tiles make a word: MAGPIE's word map's job in a bound. A search that only wants
    the best play asks it whether the rack's tiles (with the board's, for a play through them) can make
    a word of a length at all before it bounds what such a play may score. It is a filter, not a list:
    a multiset's key is the sum of a random 64-bit number per tile, one bit per key, so the tiles of a
    word are always found and other tiles now and then (two keys on one bit), which only loosens a
    bound. Made from the word graph (every word walked once) the first time a best move is asked for:
    ENABLE's 168,551 words give 152,218 keys in 8 Mbit (1 MB, 1.8% of the bits set: a yes for tiles that
    make no word about one time in 55) and 799,639 keys of a word less one letter, for a blank, in 64
    Mbit (8 MB, 1.2%); 45 ms of CPU, so it is made in each process rather than kept with the lexicon."""

    cdef WordBits w

    def __cinit__(self):
        self.w.made[0] = self.w.made[1] = NULL

    def __init__(self, Setting setting not None, int bits=23, int blank_bits=26):
        cdef int k
        cdef uint64_t x
        cdef int path[MAX_LINE]
        self.w.bits[0], self.w.bits[1] = bits, blank_bits
        for k in range(2):
            self.w.made[k] = <uint64_t*>PyMem_RawMalloc((1ULL << self.w.bits[k]) // 8)
            if self.w.made[k] == NULL:
                raise MemoryError()
            memset(self.w.made[k], 0, (1ULL << self.w.bits[k]) // 8)
        for k in range(MAX_LETTERS):  # splitmix64 of the tile number: fixed, so a run is repeatable
            x = (<uint64_t>k + 1) * 0x9E3779B97F4A7C15ULL
            x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
            x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
            self.w.key[k] = x ^ (x >> 31)
        with nogil:
            self._walk(setting.g, 0, 0, 0, path)

    def __dealloc__(self):
        PyMem_RawFree(self.w.made[0])
        PyMem_RawFree(self.w.made[1])

    cdef void _set(self, int table, uint64_t key) noexcept nogil:
        cdef uint64_t bit = word_bit(key, self.w.bits[table])
        self.w.made[table][bit >> 6] |= 1ULL << (bit & 63)

    cdef void _walk(self, const uint32_t* g, uint32_t node, int depth, uint64_t key, int* path) noexcept nogil:
        """Every word under `node` (its first `depth` letters `path`, their key `key`) into the map."""
        cdef uint32_t m = g[node], low, seen
        cdef int letter, j
        cdef uint64_t longer
        while m:
            low = m & (~m + 1)
            m ^= low
            letter = lowest_bit(low)
            path[depth] = letter
            longer = key + self.w.key[letter]
            if (g[node + 1] >> letter) & 1:
                self._set(0, longer)
                seen = 0
                for j in range(depth + 1):
                    if not (seen >> path[j]) & 1:
                        seen |= 1u << path[j]
                        self._set(1, longer - self.w.key[path[j]])
            if depth + 1 < MAX_LINE and g[g[node + FIELDS + letter]]:
                self._walk(g, g[node + FIELDS + letter], depth + 1, longer, path)

    def made(self, tiles, int blanks=0) -> bool:
        """Might `tiles` (tile numbers) and `blanks` blanks make a word? (see the class)"""
        cdef uint64_t key = 0
        for t in tiles:
            key += self.w.key[<int>t]
        return _made(&self.w, key, blanks)


cdef class Setting:
    """What every search of one game shares, made once: the word graph (a Dawg's
    32-bit records and its letter count), the board's `Shape` (size, centre, bingo
    bonus, rack size), its premiums both ways (letter and word multipliers along
    the rows, then along the columns as rows of the transpose), the points by
    tile number (256 entries: a blank's, `| BLANK_FLAG`, are 0) and the class the
    plays are made of (ScoredPlay: row, col, down, letters, through, score)."""

    cdef object graph                  # the memoryview the search points into, kept alive
    cdef const uint32_t* g
    cdef int letters
    cdef uint32_t full
    cdef int rows, cols, size, centre, bingo, rack_size
    cdef int points[2 * BLANK_FLAG]
    cdef int* lm[2]                    # [transposed][square]: letter multipliers
    cdef int* wm[2]                    # word multipliers
    cdef object cls
    cdef WordMap word_map              # made when first needed (`words`)
    cdef const WordBits* made_words    # the word map's bits once made, else NULL

    def __cinit__(self):
        self.lm[0] = self.lm[1] = self.wm[0] = self.wm[1] = NULL
        self.word_map = None
        self.made_words = NULL

    cdef const WordBits* words(self) except NULL:
        """The word map of the setting's graph, made on first use (the searches that choose a best move
        bound their anchors with it)."""
        if self.word_map is None:
            self.word_map = WordMap(self)
            self.made_words = &self.word_map.w
        return self.made_words

    def __init__(self, const uint32_t[::1] graph not None, int letters, Shape shape, tuple premiums,
                 list points, object cls):
        cdef int k, t
        if letters > MAX_LETTERS or shape.rows > MAX_LINE or shape.cols > MAX_LINE:
            raise ValueError("outside the compiled search's limits")
        self.graph = graph
        self.g = &graph[0]
        self.letters = letters
        self.full = 0xFFFFFFFF if letters == 32 else (1u << letters) - 1
        self.rows, self.cols, self.size = shape.rows, shape.cols, shape.rows * shape.cols
        self.centre, self.bingo, self.rack_size, self.cls = shape.centre, shape.bingo, shape.rack_size, cls
        for k in range(2 * BLANK_FLAG):
            self.points[k] = points[k]
        for t in range(2):
            self.lm[t] = <int*>PyMem_Malloc(self.size * sizeof(int))
            self.wm[t] = <int*>PyMem_Malloc(self.size * sizeof(int))
            if self.lm[t] == NULL or self.wm[t] == NULL:
                raise MemoryError()
            way = premiums[t]
            for k in range(self.size):
                self.lm[t][k] = way[0][k]
                self.wm[t][k] = way[1][k]

    def __dealloc__(self):
        cdef int t
        for t in range(2):
            PyMem_Free(self.lm[t])
            PyMem_Free(self.wm[t])


cdef int _placement_order(const void* a, const void* b) noexcept nogil:
    """qsort's order of two plays of equal equity and score: row, column, across before down,
    then their tiles (as ScoredPlay.key() orders them)."""
    cdef const Found* x = <const Found*>a
    cdef const Found* y = <const Found*>b
    cdef int n
    if x.row != y.row:
        return -1 if x.row < y.row else 1
    if x.col != y.col:
        return -1 if x.col < y.col else 1
    if x.down != y.down:
        return 1 if x.down else -1
    for n in range(min(x.length, y.length)):
        if x.tiles[n] != y.tiles[n]:
            return -1 if x.tiles[n] < y.tiles[n] else 1
    return x.length - y.length


cdef inline bint _ranked_before(const Ranked* x, const Ranked* y) noexcept nogil:
    """The order anchors are searched in: the higher bound first, then across before down, then by square,
    then by word start length."""
    if x.bound != y.bound:
        return x.bound > y.bound
    if x.down != y.down:
        return x.down < y.down
    if x.square != y.square:
        return x.square < y.square
    return x.k < y.k


cdef bint _play_before(long equity, long score, const Found* x, long other_equity, long other_score,
                       const Found* y) noexcept nogil:
    """`beats_best`'s order between two plays kept: higher equity, then higher score, then
    `_placement_order`."""
    if equity != other_equity:
        return equity > other_equity
    if score != other_score:
        return score > other_score
    return _placement_order(x, y) < 0


cdef void _sift_down(Ranked* heap, int n, int k) noexcept nogil:
    """Restore the heap below place k: each anchor `_ranked_before` its children."""
    cdef int child
    cdef Ranked r = heap[k]
    while True:
        child = 2 * k + 1
        if child >= n:
            break
        if child + 1 < n and _ranked_before(&heap[child + 1], &heap[child]):
            child += 1
        if not _ranked_before(&heap[child], &r):
            break
        heap[k] = heap[child]
        k = child
    heap[k] = r


cdef Ranked _next_anchor(Ranked* heap, int* n) noexcept nogil:
    """Take the first anchor (by `_ranked_before`) off a heap of `n[0]` of them. A heap, not a sort: the
    search stops after some of them (24 of 58 or so), and glibc's qsort of them all cost 3.7% of a
    simulation's time."""
    cdef Ranked top = heap[0]
    n[0] -= 1
    if n[0] > 0:
        heap[0] = heap[n[0]]
        _sift_down(heap, n[0], 0)
    return top


cdef bint _best_length(Ranked* anchor, const long* by_k, int longest) noexcept nogil:
    """Rank the anchor by its word start length of highest bound not yet searched (`by_k`, NO_PLAY where
    none or searched); False where none is left."""
    cdef int k
    anchor.bound, anchor.k = NO_PLAY, 0
    for k in range(longest + 1):
        if by_k[k] > anchor.bound:
            anchor.bound, anchor.k = by_k[k], k
    return anchor.bound != NO_PLAY


cdef int _no_memory() except -1 with gil:
    """Raise MemoryError from code that runs without the GIL."""
    raise MemoryError()


@cython.final  # its methods called directly, not through a table: the compiler may inline them
cdef class _Search:
    cdef const uint32_t* g
    cdef uint32_t full
    cdef int letters
    cdef int rows, cols, size
    # the board (or its transpose) and what each square allows
    cdef int* sq
    cdef uint32_t* need
    cdef uint32_t* cmask
    cdef int* cscore
    cdef int* lm
    cdef int* wm
    cdef uint32_t* ahead
    cdef char* tile_ahead
    cdef char* anchor
    # the same buffers for each direction (0 across, 1 down: the transpose); the ones above point into
    # one of them (`use`), so a search that picks its anchors best first can go back and forth
    cdef int* sq_d[2]
    cdef uint32_t* need_d[2]
    cdef uint32_t* cmask_d[2]
    cdef int* cscore_d[2]
    cdef int* lm_d[2]
    cdef int* wm_d[2]
    cdef uint32_t* ahead_d[2]
    cdef char* tile_ahead_d[2]
    cdef char* anchor_d[2]
    # the rack as numbered slots (see RackTiles in movegen.py)
    cdef uint32_t slots[MAX_LETTERS]
    cdef uint32_t blank_slots
    cdef uint32_t* avail
    cdef uint32_t whole
    cdef int in_rack
    cdef int points[2 * BLANK_FLAG]
    cdef int bingo
    cdef int rack_size
    # the word being tried
    cdef bint down
    cdef int start, end
    cdef int at_row, at_col
    cdef int word[MAX_LINE]
    cdef Found* found
    cdef int n_found, cap_found
    # word starts by length, in the Python search's order
    cdef Left* lefts
    cdef int n_lefts, cap_lefts
    cdef int by_length[MAX_RACK + 2]   # index of the first part of each length (after sorting)
    cdef int lefts_made                # the longest made so far (see lefts_up_to), of `left_longest` asked
    cdef int left_longest
    # choosing the best play by equity instead of listing every play (see `best`)
    cdef bint choosing
    cdef int slot_tile[MAX_RACK]       # the tile on each rack slot (a blank is tile number `letters`)
    cdef int slot_points[MAX_RACK]     # the rack's tiles' points, highest first (a blank's 0)
    cdef int by_points[MAX_RACK]       # the rack's letters (no blank), most points first
    cdef int n_by_points
    cdef long* leave                   # by rack slots kept: the leave's value, in hundredths of a point
    cdef int leave_cap                 # the entries `leave` has room for
    cdef bint have_best
    cdef long best_equity, best_score
    cdef Found best_play
    cdef uint32_t best_rem
    cdef bint keep_ties                # keep in `found` every play tied with the best (see `best`'s draw)
    cdef int down_from                 # the first play found going down
    cdef bint live                     # a LiveBoard's: `need` and `ahead` kept up to date by set_square
    # bounding anchors while choosing (see `shadow`): the best leave by tiles played, the lengths of the
    # words the rack's tiles make alone, the word map and the whole rack's key in it
    cdef long best_leave[MAX_RACK + 1]
    cdef long* kept_best               # by rack slots: the best leave of any of them kept (see extend)
    cdef long score_cap                # the bound on the score (in hundredths) of the plays searched now
    cdef long word_leave[MAX_RACK + 1]   # the best leave by tiles played where those tiles make a word alone
    cdef uint32_t rack_words
    cdef const WordBits* words
    cdef uint64_t rack_key
    cdef uint32_t swap                 # the best exchange's slots put back (0: none) and the value kept
    cdef long swap_cents               # (see _best_exchange), once `swap_ready`
    cdef bint swap_ready
    cdef long swap_most                # no exchange keeps more than this (the best leave of a tile or more put back)
    cdef void* whole_cache             # the LeaveTable to ask the whole rack's value where `leave` holds a
                                       # bound for it (see _value_leaves), else NULL
    cdef int rack_blanks
    cdef Ranked* ranked
    cdef long* k_bounds
    cdef int cap_ranked

    def __cinit__(self):
        cdef int d
        for d in range(2):
            self.sq_d[d] = NULL
            self.need_d[d] = NULL
            self.cmask_d[d] = NULL
            self.cscore_d[d] = NULL
            self.lm_d[d] = NULL
            self.wm_d[d] = NULL
            self.ahead_d[d] = NULL
            self.tile_ahead_d[d] = NULL
            self.anchor_d[d] = NULL
        self.avail = NULL
        self.ranked = NULL
        self.k_bounds = NULL
        self.kept_best = NULL
        self.cap_ranked = 0
        self.words = NULL
        self.lefts = NULL
        self.found = NULL
        self.leave = NULL
        self.leave_cap = 0

    def __dealloc__(self):
        cdef int d
        for d in range(2):
            PyMem_RawFree(self.sq_d[d])
            PyMem_RawFree(self.need_d[d])
            PyMem_RawFree(self.cmask_d[d])
            PyMem_RawFree(self.cscore_d[d])
            PyMem_RawFree(self.lm_d[d])
            PyMem_RawFree(self.wm_d[d])
            PyMem_RawFree(self.ahead_d[d])
            PyMem_RawFree(self.tile_ahead_d[d])
            PyMem_RawFree(self.anchor_d[d])
        PyMem_RawFree(self.avail)
        PyMem_RawFree(self.ranked)
        PyMem_RawFree(self.k_bounds)
        PyMem_RawFree(self.kept_best)
        PyMem_RawFree(self.lefts)
        PyMem_RawFree(self.found)
        PyMem_RawFree(self.leave)

    cdef int allocate(self, int size, int rack_tiles) except -1:
        cdef int d
        for d in range(2):
            self.sq_d[d] = <int*>PyMem_RawMalloc(size * sizeof(int))
            self.need_d[d] = <uint32_t*>PyMem_RawMalloc(size * sizeof(uint32_t))
            self.cmask_d[d] = <uint32_t*>PyMem_RawMalloc(size * sizeof(uint32_t))
            self.cscore_d[d] = <int*>PyMem_RawMalloc(size * sizeof(int))
            self.lm_d[d] = <int*>PyMem_RawMalloc(size * sizeof(int))
            self.wm_d[d] = <int*>PyMem_RawMalloc(size * sizeof(int))
            self.ahead_d[d] = <uint32_t*>PyMem_RawMalloc(size * sizeof(uint32_t))
            self.tile_ahead_d[d] = <char*>PyMem_RawMalloc(size)
            self.anchor_d[d] = <char*>PyMem_RawMalloc(size)
            if not (self.sq_d[d] and self.need_d[d] and self.cmask_d[d] and self.cscore_d[d] and self.lm_d[d]
                    and self.wm_d[d] and self.ahead_d[d] and self.tile_ahead_d[d] and self.anchor_d[d]):
                raise MemoryError()
        self.use(False, self.rows, self.cols)
        self.avail = <uint32_t*>PyMem_RawMalloc((1 << rack_tiles) * sizeof(uint32_t))
        self.cap_lefts = 256
        self.lefts = <Left*>PyMem_RawMalloc(self.cap_lefts * sizeof(Left))
        self.cap_found = 1024
        self.found = <Found*>PyMem_RawMalloc(self.cap_found * sizeof(Found))
        if not (self.found and self.avail and self.lefts):
            raise MemoryError()
        return 0

    cdef void use(self, bint down, int rows, int cols) noexcept nogil:
        """Search along one direction's buffers: across (the board's rows) or down (its columns, as the
        `rows` x `cols` rows of its transpose)."""
        cdef int d = 1 if down else 0
        self.rows, self.cols, self.down = rows, cols, down
        self.sq, self.need, self.cmask, self.cscore = self.sq_d[d], self.need_d[d], self.cmask_d[d], self.cscore_d[d]
        self.lm, self.wm, self.ahead = self.lm_d[d], self.wm_d[d], self.ahead_d[d]
        self.tile_ahead, self.anchor = self.tile_ahead_d[d], self.anchor_d[d]

    # -- the rack ---------------------------------------------------------------
    cdef void set_rack(self, counts, int blanks):
        cdef int held[MAX_LETTERS]
        cdef int letter, n = len(counts)
        for letter in range(n):
            held[letter] = counts[letter]
        self.set_rack_c(held, n, blanks)

    cdef void set_rack_c(self, const int* counts, int kinds, int blanks) noexcept nogil:
        """The rack as slots: `counts` of the first `kinds` letters, and `blanks`."""
        cdef uint32_t plays[MAX_RACK]
        cdef int n = 0, letter, k
        cdef uint32_t rem, low
        for letter in range(self.letters):
            self.slots[letter] = 0
        for letter in range(kinds):
            for k in range(counts[letter]):
                self.slots[letter] |= 1u << n
                plays[n] = 1u << letter
                self.slot_tile[n] = letter
                n += 1
        self.blank_slots = ((1u << blanks) - 1) << n
        for k in range(blanks):
            plays[n] = self.full
            self.slot_tile[n] = self.letters
            n += 1
        self.n_by_points = 0
        for letter in range(kinds):  # the letters held, most points first (an insertion sort)
            if counts[letter]:
                k = self.n_by_points
                while k > 0 and self.points[self.by_points[k - 1]] < self.points[letter]:
                    self.by_points[k] = self.by_points[k - 1]
                    k -= 1
                self.by_points[k] = letter
                self.n_by_points += 1
        for k in range(n):  # the points, highest first (an insertion sort: seven or so)
            low = self.points[self.slot_tile[k]] if self.slot_tile[k] < self.letters else 0
            letter = k
            while letter > 0 and self.slot_points[letter - 1] < <int>low:
                self.slot_points[letter] = self.slot_points[letter - 1]
                letter -= 1
            self.slot_points[letter] = low
        self.avail[0] = 0
        for rem in range(1, 1u << n):
            low = rem & (~rem + 1)
            self.avail[rem] = self.avail[rem ^ low] | plays[lowest_bit(low)]
        self.whole = (1u << n) - 1
        self.in_rack = n

    # -- word starts ------------------------------------------------------------
    cdef int add_left(self, uint32_t node, uint32_t rem, uint32_t can, int length) except -1 nogil:
        cdef Left* part
        if self.n_lefts == self.cap_lefts:
            self.cap_lefts *= 2
            part = <Left*>PyMem_RawRealloc(self.lefts, self.cap_lefts * sizeof(Left))
            if part == NULL:
                return _no_memory()
            self.lefts = part
        part = &self.lefts[self.n_lefts]
        part.node = node
        part.rem = rem
        part.can = can
        part.ends = self.g[node + 1] & can
        part.next2 = self.g[node + 2]
        part.length = length
        memcpy(part.tiles, self.word, length * sizeof(int))
        self.n_lefts += 1
        return 0

    cdef int walk(self, uint32_t node, uint32_t rem, int depth, int longest) except -1 nogil:
        """The word starts after the one in `word[:depth]` (at `node`, the rack slots `rem` left), up to
        `longest` tiles: depth first, each with those after it (`deeper`), or one tile longer alone."""
        cdef const uint32_t* g = self.g
        cdef uint32_t allowed = g[node] & self.avail[rem]
        cdef bint deeper = depth + 1 < longest
        cdef uint32_t blank = rem & self.blank_slots
        cdef uint32_t brem = rem ^ (blank & (~blank + 1))
        cdef uint32_t low, child, mine, left, can
        cdef int letter
        while allowed:
            low = allowed & (~allowed + 1)
            allowed ^= low
            letter = lowest_bit(low)
            child = g[node + FIELDS + letter]
            mine = rem & self.slots[letter]
            if mine:
                left = rem ^ (mine & (~mine + 1))
                can = g[child] & self.avail[left]
                if can:  # else nothing can follow: no play starts with these tiles
                    self.word[depth] = letter
                    self.add_left(child, left, can, depth + 1)
                    if deeper:
                        self.walk(child, left, depth + 1, longest)
            if blank:
                can = g[child] & self.avail[brem]
                if can:
                    self.word[depth] = letter | BLANK_FLAG
                    self.add_left(child, brem, can, depth + 1)
                    if deeper:
                        self.walk(child, brem, depth + 1, longest)
        return 0

    cdef int left_parts(self, int longest, bint listing) except -1 nogil:
        """Every word start up to `longest` tiles, by length; `listing` (every play listed), in the order
        movegen.left_parts lists them: by length, then by group (the letters the rack can put next, in
        the order the groups were first met), then as found. Choosing the best play needs no more than
        by length (the best is the same whatever the order its rivals are met in), and only the lengths
        an anchor asks for: they are made a length at a time, as asked (`lefts_up_to`)."""
        cdef int n, k, groups = 0, slot, size = 1
        cdef uint64_t key
        cdef uint64_t* keys
        cdef int* ids
        cdef int* count
        cdef Left* ordered
        self.n_lefts = 0
        self.add_left(0, self.whole, self.g[0] & self.avail[self.whole], 0)
        self.left_longest = longest
        if not listing:
            self.by_length[0], self.by_length[1], self.lefts_made = 0, 1, 0
            return 0
        if longest:
            self.walk(0, self.whole, 0, longest)
        self.lefts_made = MAX_RACK
        # number the groups (length, letters next) as first met: a small hash table
        while size < 2 * self.n_lefts:
            size *= 2
        keys = <uint64_t*>PyMem_RawMalloc(size * sizeof(uint64_t))
        ids = <int*>PyMem_RawMalloc(size * sizeof(int))
        count = <int*>PyMem_RawMalloc((max(self.n_lefts, MAX_RACK) + 2) * sizeof(int))  # by group, then by length
        ordered = <Left*>PyMem_RawMalloc(self.n_lefts * sizeof(Left))
        if not (keys and ids and count and ordered):
            PyMem_RawFree(keys); PyMem_RawFree(ids); PyMem_RawFree(count); PyMem_RawFree(ordered)
            return _no_memory()
        for slot in range(size):
            ids[slot] = -1
        for n in range(self.n_lefts):
            key = (<uint64_t>self.lefts[n].length << 32) | self.lefts[n].can
            slot = <int>((key * 0x9E3779B97F4A7C15ULL) >> 32) & (size - 1)
            while ids[slot] >= 0 and keys[slot] != key:
                slot = (slot + 1) & (size - 1)
            if ids[slot] < 0:
                keys[slot] = key
                ids[slot] = groups
                groups += 1
            self.lefts[n].group = ids[slot]
        # a stable counting sort by group: the groups of a length come out in
        # the order they were met, but the walk meets lengths in any order
        memset(count, 0, (groups + 1) * sizeof(int))
        for n in range(self.n_lefts):
            count[self.lefts[n].group + 1] += 1
        for k in range(groups):
            count[k + 1] += count[k]
        for n in range(self.n_lefts):
            ordered[count[self.lefts[n].group]] = self.lefts[n]
            count[self.lefts[n].group] += 1
        # then a stable one by length
        memset(count, 0, (MAX_RACK + 2) * sizeof(int))
        for n in range(self.n_lefts):
            count[ordered[n].length + 1] += 1
        for k in range(MAX_RACK + 1):
            count[k + 1] += count[k]
        for k in range(MAX_RACK + 2):
            self.by_length[k] = count[k]
        for n in range(self.n_lefts):
            self.lefts[count[ordered[n].length]] = ordered[n]
            count[ordered[n].length] += 1
        PyMem_RawFree(keys)
        PyMem_RawFree(ids)
        PyMem_RawFree(count)
        PyMem_RawFree(ordered)
        return 0

    cdef int lefts_up_to(self, int longest) except -1 nogil:
        """The word starts of up to `longest` tiles made (see left_parts), a length at a time: each from
        those one tile shorter, appended, so that each length's stay side by side (`by_length`)."""
        cdef int p, depth
        while self.lefts_made < longest:
            depth = self.lefts_made
            if depth < self.left_longest:
                for p in range(self.by_length[depth], self.by_length[depth + 1]):
                    memcpy(self.word, self.lefts[p].tiles, depth * sizeof(int))
                    self.walk(self.lefts[p].node, self.lefts[p].rem, depth, depth + 1)
            self.lefts_made += 1
            self.by_length[depth + 2] = self.n_lefts
        return 0

    # -- one direction --------------------------------------------------------
    cdef void load_line(self, const int* squares, bint transposed, Setting st) noexcept nogil:
        """The board as rows to search along: itself, or its transpose for down plays."""
        cdef int r, c, k
        for r in range(self.rows):
            for c in range(self.cols):
                k = r * self.cols + c
                self.sq[k] = squares[c * self.rows + r] if transposed else squares[k]
        memcpy(self.lm, st.lm[1 if transposed else 0], self.size * sizeof(int))
        memcpy(self.wm, st.wm[1 if transposed else 0], self.size * sizeof(int))

    cdef void cross_checks(self) noexcept nogil:
        """Per empty square with tiles above or below: the letters that make the
        column a word, and the points of those tiles (-1: no cross word)."""
        cdef int k
        for k in range(self.size):
            self.cross_check_at(k)

    cdef void cross_check_at(self, int k) noexcept nogil:
        """The cross-check of square k (see cross_checks)."""
        cdef const uint32_t* g = self.g
        cdef int* sq = self.sq
        cdef int cols = self.cols, size = self.size
        cdef int j, top, bottom, score
        cdef uint32_t node, n, m, low, allowed
        cdef int letter, last
        cdef bint ok
        self.cmask[k] = self.full
        self.cscore[k] = -1
        if sq[k] != EMPTY:
            return
        if not (k >= cols and sq[k - cols] != EMPTY) and not (k + cols < size and sq[k + cols] != EMPTY):
            return
        top = k
        while top - cols >= 0 and sq[top - cols] != EMPTY:
            top -= cols
        bottom = k
        while bottom + cols < size and sq[bottom + cols] != EMPTY:
            bottom += cols
        score = 0
        j = top
        while j < k:
            score += self.points[sq[j]]
            j += cols
        j = k + cols
        while j <= bottom:
            score += self.points[sq[j]]
            j += cols
        self.cscore[k] = score
        node = 0
        ok = True
        j = top
        while j < k:
            letter = sq[j] & LETTER_MASK
            if not (g[node] >> letter) & 1:
                ok = False
                break
            node = g[node + FIELDS + letter]
            j += cols
        if not ok:
            self.cmask[k] = 0
            return
        if bottom == k:
            self.cmask[k] = g[node + 1]
            return
        allowed = 0
        m = g[node]
        last = sq[bottom] & LETTER_MASK
        while m:
            low = m & (~m + 1)
            m ^= low
            n = g[node + FIELDS + lowest_bit(low)]
            ok = True
            j = k + cols
            while j < bottom:
                letter = sq[j] & LETTER_MASK
                if not (g[n] >> letter) & 1:
                    ok = False
                    break
                n = g[n + FIELDS + letter]
                j += cols
            if ok and (g[n + 1] >> last) & 1:
                allowed |= low
        self.cmask[k] = allowed

    cdef void need_at(self, int i) noexcept nogil:
        """What square i lets a word through it (its tile, or its cross-check),
        kept also on the square before it (`ahead`)."""
        self.need[i] = self.cmask[i] if self.sq[i] == EMPTY else 1u << (self.sq[i] & LETTER_MASK)
        if i % self.cols == self.cols - 1:
            self.ahead[i] = 0
            self.tile_ahead[i] = 0
        if i % self.cols:
            self.ahead[i - 1] = self.need[i]
            self.tile_ahead[i - 1] = self.sq[i] != EMPTY

    cdef void anchor_at(self, int k) noexcept nogil:
        """Is square k an anchor (empty, next to a tile)? (see find_anchors)"""
        cdef int* sq = self.sq
        cdef int cols = self.cols, c = k % cols
        self.anchor[k] = sq[k] == EMPTY and (
            c > 0 and sq[k - 1] != EMPTY or c < cols - 1 and sq[k + 1] != EMPTY
            or k >= cols and sq[k - cols] != EMPTY or k + cols < self.size and sq[k + cols] != EMPTY)

    cdef void set_square(self, int k, int t) noexcept nogil:
        """Put tile t on square k (EMPTY: take it off), and bring the
        cross-checks and anchors it changes up to date: the square's own, the
        nearest empty squares above and below its column's run of tiles (the
        cross words through it) and its neighbours' anchors."""
        cdef int cols = self.cols, j
        self.sq[k] = t
        self.cross_check_at(k)
        self.need_at(k)
        j = k - cols
        while j >= 0 and self.sq[j] != EMPTY:
            j -= cols
        if j >= 0:
            self.cross_check_at(j)
            self.need_at(j)
        j = k + cols
        while j < self.size and self.sq[j] != EMPTY:
            j += cols
        if j < self.size:
            self.cross_check_at(j)
            self.need_at(j)
        self.anchor_at(k)
        if k % cols > 0:
            self.anchor_at(k - 1)
        if k % cols < cols - 1:
            self.anchor_at(k + 1)
        if k >= cols:
            self.anchor_at(k - cols)
        if k + cols < self.size:
            self.anchor_at(k + cols)

    cdef void board_state(self, int d, char** at, size_t* width) noexcept nogil:
        """Direction d's state of the board, square by square (BOARD_STATE buffers, each's bytes a square):
        its squares, cross-checks, anchors and what each lets through, all a line's plays depend on and
        all `keep_board` keeps."""
        at[0], width[0] = <char*>self.sq_d[d], sizeof(int)
        at[1], width[1] = <char*>self.need_d[d], sizeof(uint32_t)
        at[2], width[2] = <char*>self.cmask_d[d], sizeof(uint32_t)
        at[3], width[3] = <char*>self.cscore_d[d], sizeof(int)
        at[4], width[4] = <char*>self.ahead_d[d], sizeof(uint32_t)
        at[5], width[5] = self.tile_ahead_d[d], 1
        at[6], width[6] = self.anchor_d[d], 1

    cdef size_t board_bytes(self) noexcept nogil:
        """The room `keep_board` takes: both directions' `board_state`."""
        cdef char* at[BOARD_STATE]
        cdef size_t width[BOARD_STATE]
        cdef size_t n = 0
        cdef int b
        self.board_state(0, at, width)
        for b in range(BOARD_STATE):
            n += width[b]
        return 2 * self.size * n

    cdef void keep_board(self, char* blob, bint back) noexcept nogil:
        """Copy both directions' `board_state` into `blob` (`back`: from it, as they were kept), so a board
        met again need not be worked out again."""
        cdef char* at[BOARD_STATE]
        cdef size_t width[BOARD_STATE]
        cdef int d, b
        for d in range(2):
            self.board_state(d, at, width)
            for b in range(BOARD_STATE):
                blob = _kept(blob, at[b], self.size * width[b], back)

    cdef bint same_line(self, _Search other, int d, int line) noexcept nogil:
        """Does line `line` of direction d (as `use` lays it out) hold the same `board_state` on both?"""
        cdef char* at[BOARD_STATE]
        cdef char* other_at[BOARD_STATE]
        cdef size_t width[BOARD_STATE]
        cdef int b
        cdef size_t start = line * self.cols, n = self.cols
        self.board_state(d, at, width)
        other.board_state(d, other_at, width)
        for b in range(BOARD_STATE):
            if memcmp(at[b] + start * width[b], other_at[b] + start * width[b], n * width[b]):
                return False
        return True

    cdef void set_both(self, int k, int t, int rows, int cols) noexcept nogil:
        """Put tile t on the board's flat square k (of `rows` x `cols`) in both directions' buffers, their
        cross-checks and anchors brought up to date (see set_square; `live` searches)."""
        self.use(True, cols, rows)
        self.set_square((k % cols) * rows + k // cols, t)
        self.use(False, rows, cols)
        self.set_square(k, t)

    cdef int copy_rack(self, _Search other) except -1 nogil:
        """Take `other`'s rack and word starts (set_rack and left_parts done there)."""
        cdef Left* part
        memcpy(self.slots, other.slots, sizeof(self.slots))
        memcpy(self.slot_tile, other.slot_tile, sizeof(self.slot_tile))
        self.blank_slots = other.blank_slots
        self.whole = other.whole
        self.in_rack = other.in_rack
        memcpy(self.avail, other.avail, (other.whole + 1) * sizeof(uint32_t))
        if self.cap_lefts < other.n_lefts:
            part = <Left*>PyMem_RawRealloc(self.lefts, other.n_lefts * sizeof(Left))
            if part == NULL:
                return _no_memory()
            self.lefts = part
            self.cap_lefts = other.n_lefts
        memcpy(self.lefts, other.lefts, other.n_lefts * sizeof(Left))
        self.n_lefts = other.n_lefts
        memcpy(self.by_length, other.by_length, sizeof(self.by_length))
        self.lefts_made, self.left_longest = other.lefts_made, other.left_longest
        return 0

    cdef int take_found(self, _Search other) except -1 nogil:
        """Append `other`'s plays found to these."""
        cdef Found* play
        cdef int cap = self.cap_found
        while cap < self.n_found + other.n_found:
            cap *= 2
        if cap != self.cap_found:
            play = <Found*>PyMem_RawRealloc(self.found, cap * sizeof(Found))
            if play == NULL:
                return _no_memory()
            self.found = play
            self.cap_found = cap
        memcpy(&self.found[self.n_found], other.found, other.n_found * sizeof(Found))
        self.n_found += other.n_found
        return 0

    cdef void find_anchors(self) noexcept nogil:
        """The empty squares next to a tile."""
        cdef int* sq = self.sq
        cdef int cols = self.cols, size = self.size, k, c
        for k in range(size):
            self.anchor[k] = 0
        for k in range(size):
            if sq[k] == EMPTY:
                continue
            c = k % cols
            if c > 0 and sq[k - 1] == EMPTY:
                self.anchor[k - 1] = 1
            if c < cols - 1 and sq[k + 1] == EMPTY:
                self.anchor[k + 1] = 1
            if k >= cols and sq[k - cols] == EMPTY:
                self.anchor[k - cols] = 1
            if k + cols < size and sq[k + cols] == EMPTY:
                self.anchor[k + cols] = 1

    cdef bint leads_through(self, uint32_t node, const int* run, int length, uint32_t want) noexcept nogil:
        """Does some letter of `want` after `node` lead through the board's `length` letters `run`?"""
        cdef const uint32_t* g = self.g
        cdef uint32_t low, n
        cdef int j
        cdef bint ok
        while want:
            low = want & (~want + 1)
            want ^= low
            n = g[node + FIELDS + lowest_bit(low)]
            ok = True
            for j in range(length):
                if not (g[n] >> run[j]) & 1:
                    ok = False
                    break
                n = g[n + FIELDS + run[j]]
            if ok:
                return True
        return False

    cdef void place(self, int s) noexcept nogil:
        """Plays found from flat square s are reported at its (row, col)."""
        self.start = s
        if self.down:
            self.at_row, self.at_col = s % self.cols, s // self.cols
        else:
            self.at_row, self.at_col = s // self.cols, s % self.cols

    cdef void load_ready(self, const int* squares, bint transposed, Setting st) noexcept nogil:
        """Load the board (`load_line`) with its cross-checks, anchors and what each square lets through
        worked out: all a search along its lines needs, and what set_square keeps up to date on a live one."""
        cdef int i
        self.load_line(squares, transposed, st)
        self.cross_checks()
        self.find_anchors()
        for i in range(self.size):
            self.need_at(i)

    cdef void ready_lines(self) noexcept nogil:
        """What each square lets through (`need`, `ahead`), from the loaded board's cross-checks (kept up to
        date by set_square on a LiveBoard's)."""
        cdef int i
        if not self.live:
            for i in range(self.size):
                self.need_at(i)

    cdef int lines(self, bint down, int longest) except -1 nogil:
        """Across plays along each row of the loaded board, from its anchors."""
        cdef int a
        self.down = down
        self.ready_lines()
        for a in range(self.size):
            if self.anchor[a]:
                self.anchor_plays(a, longest, NULL, -1)
        return 0

    cdef int left_limit(self, int a) noexcept nogil:
        """How far left of anchor a the rack's word starts may reach: over empty squares that are no
        anchor (a square next to a tile is its own anchor's), up to a tile less than the rack."""
        cdef int limit = 0, i = a - 1, row_start = a - a % self.cols
        while i >= row_start and self.sq[i] == EMPTY and not self.anchor[i] and limit < self.in_rack - 1:
            limit += 1
            i -= 1
        return limit

    cdef int anchor_plays(self, int a, int longest, const long* by_k, int only) except -1 nogil:
        """The plays found from anchor a (each play is found from one anchor, the first it covers): through
        the board tiles just before it, or else from each word start of the rack that fits the empty
        squares before it (`only` 0 or more: of that length alone); with `by_k` (choosing), only the word
        starts whose bound (`shadow`) may still beat the best play so far, and of those only the ones whose
        score's bound and best leave may (`score_cap`, `kept_best`: see extend)."""
        cdef const uint32_t* g = self.g
        cdef int* sq = self.sq
        cdef int i, s, k, n, p, t, row_start, run_len
        cdef uint32_t fits, after, node, can, want
        cdef long main, wmul
        cdef bint after_tile, ok
        cdef Left* part
        cdef int run[MAX_LINE]             # the letters of the board's tiles just after the anchor
        row_start = a - a % self.cols
        self.end = row_start + self.cols
        fits = self.cmask[a]
        after = self.need[a + 1] if a + 1 < self.end else 0
        i = a + 1
        while i < self.end and sq[i] != EMPTY:
            i += 1
        run_len = i - a - 1
        after_tile = run_len > 0
        for k in range(run_len):
            run[k] = sq[a + 1 + k] & LETTER_MASK
        if a > row_start and sq[a - 1] != EMPTY:
            s = a - 1
            while s > row_start and sq[s - 1] != EMPTY:
                s -= 1
            node = 0
            ok = True
            main = 0
            for i in range(s, a):
                t = sq[i]
                if not (g[node] >> (t & LETTER_MASK)) & 1:
                    ok = False
                    break
                node = g[node + FIELDS + (t & LETTER_MASK)]
                self.word[i - s] = t
                main += self.points[t]
            if not ok:
                return 0
            can = g[node] & fits & self.avail[self.whole]
            if not can:
                return 0
            if after_tile and not self.leads_through(node, run, run_len, can):
                return 0
            self.score_cap = by_k[MAX_RACK] if by_k != NULL else NO_CAP
            self.place(s)
            self.extend(node, a, a - s, main, 1, 0, 0, (1ULL << (a - s)) - 1, self.whole)
            return 0
        for k in range(min(self.left_limit(a), longest) + 1):
            if only >= 0 and k != only:
                continue
            if by_k != NULL and self.have_best and by_k[k] < self.best_equity:
                continue  # no play starting k squares left of the anchor can beat the best so far
            if k > self.lefts_made:
                self.lefts_up_to(k)
            self.place(a - k)
            self.score_cap = by_k[MAX_RACK + k] if by_k != NULL else NO_CAP
            for p in range(self.by_length[k], self.by_length[k + 1]):
                part = &self.lefts[p]
                if not part.can & fits:
                    continue  # no rack tile can go on the anchor after this left part
                if self.have_best and self.score_cap + self.kept_best[part.rem] < self.best_equity:
                    continue  # what it leaves on the rack cannot make up for the most the play may score
                if not part.next2 & after and (after_tile or not part.ends & fits):
                    continue  # the word can neither end on the anchor nor go on past it
                if after_tile:
                    want = part.can & fits
                    if not self.leads_through(part.node, run, run_len, want):
                        continue  # no letter on the anchor leads through the tiles after it
                main = 0
                wmul = 1
                for n in range(k):
                    t = part.tiles[n]
                    self.word[n] = t
                    main += self.points[t] * self.lm[self.start + n]
                    wmul *= self.wm[self.start + n]
                self.extend(part.node, a, k, main, wmul, 0, k, 0, part.rem)
        return 0

    # -- bounding an anchor (choosing the best move) ---------------------------
    cdef int cap(self, uint32_t allowed) noexcept nogil:
        """The most points a rack tile scores on a square that allows the letters `allowed`."""
        cdef int k
        for k in range(self.n_by_points):
            if (allowed >> self.by_points[k]) & 1:
                return self.points[self.by_points[k]]
        return 0

    cdef long shadow(self, int a, int longest, long* by_k) noexcept nogil:
        """A bound on the equity (in hundredths) of every play `anchor_plays(a)` finds, NO_PLAY where it can
        find none: over each stretch of squares such a play may cover (from the anchor rightwards as far
        as the rack's tiles fit the cross-checks, leftwards over the word starts' squares), the rack's
        highest points on the stretch's best multipliers (letter premiums times the word's premiums,
        plus the cross words'), its board tiles and cross words, the bingo, and the best leave of what
        is kept; a stretch whose tiles can make no word (the rack's alone, or the whole rack through the
        board's: the word map) counts for nothing. MAGPIE's "shadow" is this idea. `by_k`: the bound
        of the plays from each word start length (the squares left of the anchor they fill), and from
        `by_k[MAX_RACK]` on the bound of their scores alone (in hundredths, for `extend`)."""
        cdef int* sq = self.sq
        cdef uint32_t letters = self.avail[self.whole]
        cdef int row_start = a - a % self.cols, end = row_start + self.cols
        cdef int r = 0, i, j, k, n, limit = 0, s
        cdef long board = 0, wmul = 1, cross = 0, best = NO_PLAY, total, W, m
        cdef long wmul_left[MAX_RACK + 1]
        cdef long mult[MAX_RACK]
        cdef long right_mult[MAX_RACK]   # the right squares' multipliers at `wmul`, highest first
        cdef long right_capped = 0
        cdef int lm_right[MAX_RACK]
        cdef int cap_right[MAX_RACK]     # the most points a rack tile the square allows scores
        cdef long capped
        cdef int cross_right[MAX_RACK]  # a right square's cross word's letter multiplier (lm * wm), or 0
        cdef uint64_t key = 0
        cdef bint through = False
        cdef uint32_t node, at_anchor = self.cmask[a]  # the letters that may go on the anchor
        for k in range(longest + 1):
            by_k[k] = by_k[MAX_RACK + k] = NO_PLAY
        if not self.cmask[a] & letters:
            return NO_PLAY
        if a > row_start and sq[a - 1] != EMPTY:  # the word starts with the board's tiles before the anchor
            s = a - 1
            while s > row_start and sq[s - 1] != EMPTY:
                s -= 1
            node = 0
            for j in range(s, a):
                board += self.points[sq[j]]
                key += self.words.key[sq[j] & LETTER_MASK] if self.words != NULL else 0
                if not (self.g[node] >> (sq[j] & LETTER_MASK)) & 1:
                    return NO_PLAY  # no word starts so (a phony on the board): anchor_plays finds nothing
                node = self.g[node + FIELDS + (sq[j] & LETTER_MASK)]
            at_anchor = self.g[node] & self.cmask[a] & letters  # the rack's letters that may go on after them
            if not at_anchor:
                return NO_PLAY
            through = True
        else:
            limit = min(self.left_limit(a), longest)
        wmul_left[0] = 1
        for k in range(1, limit + 1):
            wmul_left[k] = wmul_left[k - 1] * self.wm[a - k]
        i = a
        while i < end:
            if sq[i] == EMPTY:
                if r == self.in_rack or not self.cmask[i] & letters:
                    break
                lm_right[r] = self.lm[i]
                cap_right[r] = self.cap(at_anchor if i == a else self.cmask[i])
                cross_right[r] = 0
                if self.cscore[i] >= 0:
                    cross_right[r] = self.lm[i] * self.wm[i]
                    cross += self.cscore[i] * self.wm[i]
                wmul *= self.wm[i]
                if self.wm[i] == 1:  # the others' multipliers stand: this one's in its place
                    m = lm_right[r] * wmul + cross_right[r]
                    right_capped += m * cap_right[r]
                    _insert_falling(right_mult, r, m)
                else:
                    right_capped = 0
                    for j in range(r + 1):
                        m = lm_right[j] * wmul + cross_right[j]
                        right_capped += m * cap_right[j]
                        _insert_falling(right_mult, j, m)
                r += 1
            else:
                board += self.points[sq[i]]
                key += self.words.key[sq[i] & LETTER_MASK] if self.words != NULL else 0
                through = True
            i += 1
            if i < end and sq[i] != EMPTY:
                continue  # a word cannot end beside a tile
            memcpy(mult, right_mult, r * sizeof(long))
            capped = right_capped
            for k in range(min(limit, self.in_rack - r) + 1):
                n = r + k
                W = wmul * wmul_left[k]
                if k and wmul_left[k] == 1:  # one more square on the left, the others' multipliers as they were
                    m = self.lm[a - k] * W
                    capped += m * self.slot_points[0]
                    _insert_falling(mult, n - 1, m)
                elif k:  # a word premium on the left: every square's multiplier again
                    capped = 0
                    for j in range(n):
                        m = lm_right[j] * W + cross_right[j] if j < r else self.lm[a - (j - r) - 1] * W
                        capped += m * (cap_right[j] if j < r else self.slot_points[0])
                        _insert_falling(mult, j, m)
                if not through and not (self.rack_words >> n) & 1:
                    continue  # the rack's tiles alone make no word this long
                if through and n == self.in_rack and not _made(self.words, self.rack_key + key, self.rack_blanks):
                    continue  # the whole rack and the board's tiles make no word
                total = 0
                for j in range(n):
                    total += mult[j] * self.slot_points[j]
                total = (min(total, capped) + board * W + cross + (self.bingo if n == self.rack_size else 0)) * 100
                if total > by_k[MAX_RACK + k]:
                    by_k[MAX_RACK + k] = total
                total += self.best_leave[n] if through else self.word_leave[n]
                if total > by_k[k]:
                    by_k[k] = total
        for k in range(limit + 1):
            best = max(best, by_k[k])
        return best

    cdef int anchors_best_first(self, Setting st, const int* squares, int longest, const uint64_t* lines
                                ) except -1 nogil:
        """Choosing: every anchor both ways bounded (`shadow`, by word start length), then its plays from
        each length of word start searched best bound first, until the best play so far (maybe one found
        before) beats every bound left (a play tied with it is still looked for). `lines`: only the
        anchors of these lines (a bit per line, across then down, on a `live` search; NULL: every line)."""
        cdef int d, a, n = 0, k, line
        cdef Ranked* grown
        cdef Ranked top
        cdef long* by_k
        if self.cap_ranked < 2 * self.size:
            grown = <Ranked*>PyMem_RawRealloc(self.ranked, 2 * self.size * sizeof(Ranked))
            if grown == NULL:
                return _no_memory()
            self.ranked = grown
            by_k = <long*>PyMem_RawRealloc(self.k_bounds, 2 * self.size * 2 * MAX_RACK * sizeof(long))
            if by_k == NULL:
                return _no_memory()
            self.k_bounds, self.cap_ranked = by_k, 2 * self.size
        for d in range(2):
            if lines != NULL and lines[d] == 0:
                continue
            self.use(d, st.cols if d else st.rows, st.rows if d else st.cols)
            if not self.live:  # else kept up to date by set_square
                self.load_ready(squares, d, st)
            for line in range(self.rows):
                if lines != NULL and not (lines[d] >> line) & 1:
                    continue
                for a in range(line * self.cols, (line + 1) * self.cols):
                    if self.anchor[a]:
                        by_k = &self.k_bounds[n * 2 * MAX_RACK]
                        if self.shadow(a, longest, by_k) != NO_PLAY:
                            self.ranked[n].square, self.ranked[n].down, self.ranked[n].number = a, d, n
                            _best_length(&self.ranked[n], by_k, longest)
                            n += 1
        for k in range(n // 2 - 1, -1, -1):
            _sift_down(self.ranked, n, k)
        while n > 0:
            top = self.ranked[0]
            if self.have_best and top.bound < self.best_equity:
                break
            d = top.down
            self.use(d, st.cols if d else st.rows, st.rows if d else st.cols)
            by_k = &self.k_bounds[top.number * 2 * MAX_RACK]
            self.anchor_plays(top.square, longest, by_k, top.k)
            by_k[top.k] = NO_PLAY  # searched: the anchor's next length, if any, takes its place
            if _best_length(&self.ranked[0], by_k, longest):
                _sift_down(self.ranked, n, 0)
            else:
                _next_anchor(self.ranked, &n)
        return 0

    cdef int lengths_best_first(self, int a, int longest) except -1 nogil:
        """Choosing on an empty board: the plays from its one anchor `a` (the centre), bounded by word start
        length (`shadow`) and searched best bound first, while a bound may still beat the best play so far."""
        cdef Ranked at
        cdef long by_k[2 * MAX_RACK]
        if self.shadow(a, longest, by_k) == NO_PLAY:
            return 0
        while _best_length(&at, by_k, longest) and not (self.have_best and at.bound < self.best_equity):
            self.anchor_plays(a, longest, by_k, at.k)
            by_k[at.k] = NO_PLAY
        return 0

    # -- extending right ------------------------------------------------------
    cdef inline int record(self, int length, uint64_t through, long score, uint32_t rem) except -1 nogil:
        if self.choosing:
            if self.have_best and not self.keep_ties and score * 100 + self.leave[rem] < self.best_equity:
                return 0  # below the best: most plays a search meets
            return self.consider(length, through, score, rem)
        self.push(length, through, score, rem)
        return 0

    cdef Found* push(self, int length, uint64_t through, long score, uint32_t rem) except NULL nogil:
        """Append the play in `word` to the plays found."""
        cdef Found* play
        cdef int n
        if self.n_found == self.cap_found:
            self.cap_found *= 2
            play = <Found*>PyMem_RawRealloc(self.found, self.cap_found * sizeof(Found))
            if play == NULL:
                _no_memory()
                return NULL
            self.found = play
        play = &self.found[self.n_found]
        play.row = self.at_row
        play.col = self.at_col
        play.down = self.down
        play.length = length
        play.through = through
        play.score = score
        play.rem = rem
        for n in range(length):
            play.tiles[n] = <unsigned char>self.word[n]
        self.n_found += 1
        return play

    cdef bint beats_best(self, int length, long equity, long score) noexcept nogil:
        """Does the play in `word` come before the best so far? Higher equity,
        then higher score, then by placement: row, column, across before down,
        then its tiles (as ScoredPlay.key() and equity.equity_order order them)."""
        cdef Found* best = &self.best_play
        cdef int n
        if not self.have_best or equity != self.best_equity:
            return not self.have_best or equity > self.best_equity
        if score != self.best_score:
            return score > self.best_score
        if self.at_row != best.row:
            return self.at_row < best.row
        if self.at_col != best.col:
            return self.at_col < best.col
        if self.down != best.down:
            return not self.down
        for n in range(min(length, best.length)):
            if self.word[n] != best.tiles[n]:
                return self.word[n] < best.tiles[n]
        return length < best.length

    cdef int consider(self, int length, uint64_t through, long score, uint32_t rem) except -1 nogil:
        """Keep the play in `word` if it is the best so far (and with `keep_ties`, in `found`
        if its equity and score are the best's: the plays tied, whatever their placement)."""
        cdef long equity = score * 100 + self.leave[rem]
        cdef int n
        if self.keep_ties and (not self.have_best or equity > self.best_equity
                               or equity == self.best_equity and score >= self.best_score):
            if self.have_best and (equity > self.best_equity or score > self.best_score):
                self.n_found = 0
            self.push(length, through, score, rem)
        if not self.beats_best(length, equity, score):
            return 0
        self.have_best = True
        self.best_equity = equity
        self.best_score = score
        self.best_rem = rem
        self.best_play.row = self.at_row
        self.best_play.col = self.at_col
        self.best_play.length = length
        self.best_play.score = score
        self.best_play.down = self.down
        self.best_play.through = through
        for n in range(length):
            self.best_play.tiles[n] = <unsigned char>self.word[n]
        return 0

    cdef void draw_tie(self, long long ticket) noexcept nogil:
        """Make the best play the tied play number `ticket` modulo their count, the tied plays
        in placement order (as equity.best_candidate draws them)."""
        if self.n_found < 2:
            return
        qsort(self.found, self.n_found, sizeof(Found), _placement_order)
        self.best_play = self.found[ticket % self.n_found]
        self.best_rem = self.best_play.rem

    cdef object best_as(self, object cls):
        """The best play kept by `consider`, as an instance of `cls`."""
        cdef Found* play = &self.best_play
        cdef tuple letters = PyTuple_New(play.length)
        cdef object tile
        cdef int n
        for n in range(play.length):
            tile = play.tiles[n]
            Py_INCREF(tile)
            PyTuple_SET_ITEM(letters, n, tile)
        return new_play(cls, play.row, play.col, play.down, letters, play.through, play.score)

    cdef int* best_first(self) except? NULL:
        """`best_first_c`, raising MemoryError where it fails."""
        cdef int* order = self.best_first_c()
        if order == NULL:
            raise MemoryError()
        return order

    cdef int* best_first_c(self) noexcept nogil:
        """The indexes of the plays found, best score first, equal scores in
        the order found (a stable counting sort by score); the caller frees it
        (NULL: no memory)."""
        cdef int n, k, lo, hi
        cdef int* start
        cdef int* order
        lo = hi = self.found[0].score
        for n in range(self.n_found):
            lo = min(lo, self.found[n].score)
            hi = max(hi, self.found[n].score)
        start = <int*>PyMem_RawMalloc((hi - lo + 2) * sizeof(int))
        order = <int*>PyMem_RawMalloc(self.n_found * sizeof(int))
        if start == NULL or order == NULL:
            PyMem_RawFree(start)
            PyMem_RawFree(order)
            return NULL
        for k in range(hi - lo + 2):
            start[k] = 0
        for n in range(self.n_found):
            start[hi - self.found[n].score + 1] += 1
        for k in range(hi - lo + 1):
            start[k + 1] += start[k]
        for n in range(self.n_found):
            k = hi - self.found[n].score
            order[start[k]] = n
            start[k] += 1
        PyMem_RawFree(start)
        return order

    cdef list plays(self, object cls, bint down_from):
        """The plays found, best first (see best_first), as instances of `cls`."""
        cdef int n, k
        cdef int* order
        cdef Found* play
        cdef list out = []
        cdef tuple letters
        cdef object tile
        if self.n_found == 0:
            return out
        order = self.best_first()
        try:
            for k in range(self.n_found):
                play = &self.found[order[k]]
                letters = PyTuple_New(play.length)
                for n in range(play.length):
                    tile = play.tiles[n]
                    Py_INCREF(tile)
                    PyTuple_SET_ITEM(letters, n, tile)
                out.append(new_play(cls, play.row, play.col, order[k] >= down_from, letters, play.through,
                                    play.score))
        finally:
            PyMem_RawFree(order)
        return out

    cdef object flat(self, int down_from):
        """The plays found, best first, packed as 32-bit ints in an array (see `flat_c`)."""
        cdef int* packed = NULL
        cdef int cap = 0, total, k
        total = self.flat_c(down_from, &packed, &cap)
        out = array("i", bytes(4 * total))
        cdef int[::1] view = out
        for k in range(total):
            view[k] = packed[k]
        PyMem_RawFree(packed)
        return out

    cdef int flat_c(self, int down_from, int** packed, int* cap) except -1 nogil:
        """The plays found, best first, packed as 32-bit ints into `*packed` (grown with
        PyMem_RawRealloc to hold them; `*cap` its room): per play its score, row, col, down,
        length, the low and high halves of `through`, then its tiles (what the endgame search
        keeps per play, without a Python object each). Returns the ints written."""
        cdef int n, k, at = 0, total = 0
        cdef int* order
        cdef int* grown
        cdef Found* play
        for n in range(self.n_found):
            total += FLAT_FIELDS + self.found[n].length
        if total > cap[0] or packed[0] == NULL:
            grown = <int*>PyMem_RawRealloc(packed[0], max(total, 1) * sizeof(int))
            if grown == NULL:
                return _no_memory()
            packed[0] = grown
            cap[0] = max(total, 1)
        if self.n_found == 0:
            return 0
        order = self.best_first_c()
        if order == NULL:
            return _no_memory()
        for k in range(self.n_found):
            play = &self.found[order[k]]
            packed[0][at] = play.score
            packed[0][at + 1] = play.row
            packed[0][at + 2] = play.col
            packed[0][at + 3] = order[k] >= down_from
            packed[0][at + 4] = play.length
            packed[0][at + 5] = <int>(play.through & 0xFFFFFFFFULL)
            packed[0][at + 6] = <int>(play.through >> 32)
            at += FLAT_FIELDS
            for n in range(play.length):
                packed[0][at + n] = play.tiles[n]
            at += play.length
        PyMem_RawFree(order)
        return total

    cdef int record_through(self, int length, long score, int placed, uint64_t through, uint32_t rem) except -1 nogil:
        """Record a word that ends on a board tile."""
        if placed == self.rack_size:
            score += self.bingo
        if self.down and placed == 1 and self.cscore[self.start + lowest_bit(~through & (through + 1))] >= 0:
            return 0  # a one-tile play that also makes an across word: listed as across
        return self.record(length, through, score, rem)

    cdef int extend(self, uint32_t node, int i, int length, long main, long wmul, long cross, int placed,
                    uint64_t through, uint32_t rem) except -1 nogil:
        """Continue the word (its `length` tiles so far) at flat square i, with the rack slots `rem` left;
        choosing, only while the bound on the plays' score (`score_cap`, from `shadow`) with the best leave
        of `rem` (`kept_best`) may beat the best play so far."""
        cdef const uint32_t* g = self.g
        cdef int* sq = self.sq
        cdef int t = sq[i], letter, j, lm, w, cs, p
        cdef uint32_t allowed, fin, next_need, low, child, further, mine, left, blank, brem = 0
        cdef long bonus, score, ncross
        cdef bint next_tile, keep
        if self.have_best and self.score_cap + self.kept_best[rem] < self.best_equity:
            return 0  # no play from here scores enough to beat the best with the best leave it may keep
        if t != EMPTY:
            letter = t & LETTER_MASK
            if not (g[node] >> letter) & 1:
                return 0
            self.word[length] = t
            length += 1
            through |= 1ULL << (i - self.start)
            main += self.points[t]
            j = i + 1
            if placed and (j == self.end or sq[j] == EMPTY) and (g[node + 1] >> letter) & 1:
                self.record_through(length, main * wmul + cross, placed, through, rem)
            if j < self.end:
                child = g[node + FIELDS + letter]
                further = g[child] & self.need[j]
                if further and (sq[j] != EMPTY or further & self.avail[rem]):
                    self.extend(child, j, length, main, wmul, cross, placed, through, rem)
            return 0
        allowed = g[node] & self.cmask[i] & self.avail[rem]
        if not allowed:
            return 0
        lm = self.lm[i]
        w = self.wm[i]
        cs = self.cscore[i]
        next_need = self.ahead[i]
        next_tile = self.tile_ahead[i]
        j = i + 1
        fin = g[node + 1] if length else 0  # a one-letter word is no word
        wmul *= w
        placed += 1
        bonus = self.bingo if placed == self.rack_size else 0
        # a one-tile down play that also makes an across word is listed as across
        keep = placed > 1 or not self.down or cs < 0
        blank = rem & self.blank_slots
        if blank:
            brem = rem ^ (blank & (~blank + 1))  # the rack after playing a blank
        if not next_need or placed >= self.in_rack and not next_tile:
            # the word cannot go on: only letters that end it here
            if not keep:
                return 0
            allowed &= fin
            while allowed:
                low = allowed & (~allowed + 1)
                allowed ^= low
                letter = lowest_bit(low)
                mine = rem & self.slots[letter]
                if mine:
                    p = self.points[letter] * lm
                    score = (main + p) * wmul + (cross + (cs + p) * w if cs >= 0 else cross) + bonus
                    self.word[length] = letter
                    self.record(length + 1, through, score, rem ^ (mine & (~mine + 1)))
                if blank:
                    score = main * wmul + (cross + cs * w if cs >= 0 else cross) + bonus
                    self.word[length] = letter | BLANK_FLAG
                    self.record(length + 1, through, score, brem)
            return 0
        if next_tile or not keep:
            fin = 0  # the word runs on into the tile, or is not to be listed
        while allowed:
            low = allowed & (~allowed + 1)
            allowed ^= low
            letter = lowest_bit(low)
            child = g[node + FIELDS + letter]
            further = g[child] & next_need
            if not further and not fin & low:
                continue  # the letter neither ends a word here nor leads on
            mine = rem & self.slots[letter]
            if mine:
                left = rem ^ (mine & (~mine + 1))
                p = self.points[letter] * lm
                ncross = cross + (cs + p) * w if cs >= 0 else cross
                self.word[length] = letter
                if fin & low:
                    self.record(length + 1, through, (main + p) * wmul + ncross + bonus, left)
                if further and (next_tile or further & self.avail[left]):
                    self.extend(child, j, length + 1, main + p, wmul, ncross, placed, through, left)
            if blank:
                ncross = cross + cs * w if cs >= 0 else cross
                self.word[length] = letter | BLANK_FLAG
                if fin & low:
                    self.record(length + 1, through, main * wmul + ncross + bonus, brem)
                if further and (next_tile or further & self.avail[brem]):
                    self.extend(child, j, length + 1, main, wmul, ncross, placed, through, brem)
        return 0


cdef inline void _insert_falling(long* values, int n, long m) noexcept nogil:
    """Put m in its place among the n `values` kept highest first."""
    while n > 0 and values[n - 1] < m:
        values[n] = values[n - 1]
        n -= 1
    values[n] = m


cdef void _load_board(_Search s, Setting st, const int* squares) noexcept nogil:
    """Load the board `squares` into both directions' buffers of `s`, its cross-checks, anchors and what
    each square lets through worked out."""
    cdef int d
    for d in range(2):
        s.use(d, st.cols if d else st.rows, st.rows if d else st.cols)
        s.load_ready(squares, d, st)
    s.use(False, st.rows, st.cols)


cdef inline char* _kept(char* blob, void* buffer, size_t n, bint back) noexcept nogil:
    """Copy n bytes from `buffer` into `blob` (`back`: the other way); the blob's next place."""
    if back:
        memcpy(buffer, blob, n)
    else:
        memcpy(blob, buffer, n)
    return blob + n


cdef _Search _new_search(Setting st, bint transposed, int rack_tiles):
    """A search over the setting's graph and points, along its board's rows (or, `transposed`, its
    columns), with room for a rack of up to `rack_tiles` tiles: every search is made here."""
    cdef _Search s = _Search()
    s.g, s.letters, s.full = st.g, st.letters, st.full
    s.rows, s.cols = (st.cols, st.rows) if transposed else (st.rows, st.cols)
    s.size = st.size
    s.allocate(st.size, rack_tiles)
    memcpy(s.points, st.points, sizeof(s.points))
    s.bingo, s.rack_size = st.bingo, st.rack_size
    return s


cdef _Search _prepare(Setting st, counts, int blanks, bint listing):
    """A search over the setting's board for the rack given, its word starts made (for listing every
    play, or for choosing the best: see left_parts)."""
    cdef int in_rack = sum(counts) + blanks
    if in_rack > MAX_RACK:
        raise ValueError("outside the compiled search's limits")
    cdef _Search s = _new_search(st, False, max(in_rack, 1))
    s.set_rack(counts, blanks)
    s.left_parts(min(in_rack - 1, max(st.rows, st.cols) - 1), listing)
    return s


cdef class _Squares:
    """A board's squares (a list of tile numbers by flat square) as a C array, for the searches."""
    cdef int* at
    cdef int size

    def __cinit__(self, list squares):
        cdef int k
        self.size = len(squares)
        self.at = <int*>PyMem_Malloc(max(self.size, 1) * sizeof(int))
        if self.at == NULL:
            raise MemoryError()
        for k in range(self.size):
            self.at[k] = squares[k]

    def __dealloc__(self):
        PyMem_Free(self.at)


cdef void _search(_Search s, Setting st, list squares) except *:
    """`_search_at` on a board given as a list."""
    cdef _Squares board = _Squares(squares)
    _search_at(s, st, board.at)


cdef int _search_at(_Search s, Setting st, const int* squares) except -1 nogil:
    """Run the search both ways (across only on an empty board, from the centre)."""
    cdef int k, longest = min(s.in_rack - 1, max(st.rows, st.cols) - 1)
    cdef bint empty = True
    s.use(False, st.rows, st.cols)
    for k in range(st.size):
        if squares[k] != EMPTY:
            empty = False
            break
    if s.choosing and not empty:  # (it loads the board both ways itself where not live)
        s.anchors_best_first(st, squares, longest, NULL)
        s.use(False, st.rows, st.cols)
        return 0
    if not s.live:  # else kept up to date by set_square
        s.load_line(squares, False, st)
    if empty:
        for k in range(s.size):
            s.cmask[k] = s.full
            s.cscore[k] = -1
            s.anchor[k] = k == st.centre
        if s.choosing:
            s.ready_lines()
            s.lengths_best_first(st.centre, longest)
        else:
            s.lines(False, longest)
        s.down_from = s.n_found
        return 0
    s.cross_checks()
    s.find_anchors()
    s.lines(False, longest)
    s.down_from = s.n_found  # the plays found from here on go down
    s.use(True, st.cols, st.rows)
    s.load_line(squares, True, st)
    s.cross_checks()
    s.find_anchors()
    s.lines(True, longest)
    s.use(False, st.rows, st.cols)
    return 0


def find(Setting setting not None, list squares, counts, int blanks) -> list:
    """Every legal play on the board `squares` (tile numbers by flat square, EMPTY where none) for the rack
    `counts` (by letter) and `blanks`, best first, as movegen's pure search lists them, as instances of the
    setting's class."""
    cdef _Search s
    if sum(counts) + blanks == 0:
        return []
    s = _prepare(setting, counts, blanks, True)
    _search(s, setting, squares)
    return s.plays(setting.cls, s.down_from)


def find_flat(Setting setting not None, list squares, counts, int blanks):
    """`find`'s plays in the same order, packed in an array of ints (see _Search.flat)."""
    cdef _Search s
    if sum(counts) + blanks == 0:
        return array("i")
    s = _prepare(setting, counts, blanks, True)
    _search(s, setting, squares)
    return s.flat(s.down_from)


cdef class LiveBoard:
    """A board kept ready for move generation while tiles come and go (the
    endgame search plays and takes back thousands of plays on one board):
    both directions' squares, cross-checks and anchors stay loaded, and
    placing or lifting a tile (`set`) recomputes only those it changes, so
    `find_flat` costs the search for words alone. Its plays are find_flat's
    for the same board and rack, in the same order."""
    cdef _Search across_s, down_s
    cdef Setting setting
    cdef int rows, cols, size, filled, centre
    cdef LiveApi c_api

    def __init__(self, Setting setting not None, list squares):
        cdef int k
        cdef _Squares board = _Squares(squares)
        self.setting = setting  # the searches point into its graph
        self.rows, self.cols, self.size, self.centre = setting.rows, setting.cols, setting.size, setting.centre
        self.across_s = _new_search(setting, False, MAX_RACK)
        self.down_s = _new_search(setting, True, MAX_RACK)
        self.across_s.load_ready(board.at, False, setting)
        self.down_s.load_ready(board.at, True, setting)
        self.across_s.live = self.down_s.live = True
        self.filled = sum(1 for k in range(self.size) if squares[k] != EMPTY)

    def set(self, int k, int t):
        """Put tile t (a tile number, BLANK_FLAG set for a blank) on flat square k, or EMPTY to lift it."""
        self.set_c(k, t)

    cdef void set_c(self, int k, int t) noexcept nogil:
        cdef int was = self.across_s.sq[k]
        if (was == EMPTY) != (t == EMPTY):
            self.filled += 1 if t != EMPTY else -1
        self.across_s.set_square(k, t)
        self.down_s.set_square((k % self.cols) * self.rows + k // self.cols, t)

    def find_flat(self, counts, int blanks):
        """find_flat's plays on this board for the rack given."""
        cdef int held[MAX_LETTERS]
        cdef int letter, n = len(counts), total
        cdef int* packed = NULL
        cdef int cap = 0
        if n > MAX_LETTERS or sum(counts) + blanks > MAX_RACK:
            raise ValueError("outside the compiled search's limits")
        for letter in range(n):
            held[letter] = counts[letter]
        try:
            total = self.find_c(held, n, blanks, &packed, &cap)
            out = array("i", bytes(4 * total))
            for letter in range(total):
                out[letter] = packed[letter]
            return out
        finally:
            PyMem_RawFree(packed)

    cdef int find_c(self, const int* counts, int kinds, int blanks, int** packed, int* cap) except -1 nogil:
        """find_flat's plays on this board for the rack (`counts` of the first `kinds` letters, and
        `blanks`; at most MAX_RACK tiles), packed into `*packed` as _Search.flat_c does: the ints
        written. Without the GIL: the endgame search's threads each generate on their own board."""
        cdef int longest, down_from, k, in_rack = blanks
        for k in range(kinds):
            in_rack += counts[k]
        self.across_s.n_found = 0
        if in_rack == 0:
            return self.across_s.flat_c(0, packed, cap)
        longest = min(in_rack - 1, max(self.rows, self.cols) - 1)
        self.across_s.set_rack_c(counts, kinds, blanks)
        self.across_s.left_parts(longest, True)
        if self.filled == 0:  # the first play: across only, through the centre
            for k in range(self.size):
                self.across_s.cmask[k] = self.across_s.full
                self.across_s.cscore[k] = -1
                self.across_s.anchor[k] = k == self.centre
                self.across_s.need_at(k)
            self.across_s.lines(False, longest)
            self.across_s.cross_checks()
            self.across_s.find_anchors()
            for k in range(self.size):
                self.across_s.need_at(k)
            return self.across_s.flat_c(self.across_s.n_found, packed, cap)
        self.across_s.lines(False, longest)
        down_from = self.across_s.n_found
        self.down_s.copy_rack(self.across_s)
        self.down_s.n_found = 0
        self.down_s.lines(True, longest)
        self.across_s.take_found(self.down_s)
        return self.across_s.flat_c(down_from, packed, cap)

    def best_single(self, int letter):
        """The highest score of a play of one tile, `letter` (-1: a blank), on this board; -1 where none."""
        return self.best_single_c(letter)

    cdef int best_single_c(self, int letter) noexcept nogil:
        """`best_single`, read off the cross-checks kept both ways without a word search: one tile on an
        empty square next to a tile makes at most two words, the tiles above and below it with it (the
        across search's cross-check and cross score of the square) and those left and right of it (the
        down search's); both must allow the letter, and each word scores its tiles' points with the
        square's premiums. The endgame's side with one tile left needs no more of its plays."""
        cdef int* sq = self.across_s.sq
        cdef int* up_score = self.across_s.cscore
        cdef int* side_score = self.down_s.cscore
        cdef uint32_t* up_mask = self.across_s.cmask
        cdef uint32_t* side_mask = self.down_s.cmask
        cdef int* lm = self.across_s.lm
        cdef int* wm = self.across_s.wm
        cdef uint32_t full = self.across_s.full
        cdef int k, kd, up, side, pts, score, best = -1
        cdef uint32_t allowed
        for k in range(self.size):
            if sq[k] != EMPTY:
                continue
            kd = (k % self.cols) * self.rows + k // self.cols
            up = up_score[k]
            side = side_score[kd]
            if up < 0 and side < 0:
                continue
            allowed = up_mask[k] & side_mask[kd] & full
            if letter < 0:
                if not allowed:
                    continue
                pts = 0
            elif (allowed >> letter) & 1:
                pts = self.across_s.points[letter] * lm[k]
            else:
                continue
            score = 0
            if up >= 0:
                score += (up + pts) * wm[k]
            if side >= 0:
                score += (side + pts) * wm[k]
            if score > best:
                best = score
        return best

    def api(self):
        """A capsule of `LiveApi` (see _endgame.pyx): this board and its C entry points, for
        a search that plays and generates on it without the GIL. The caller keeps this
        LiveBoard alive while it uses the capsule."""
        self.c_api.board = <void*>self
        self.c_api.set = _live_set
        self.c_api.find = _live_find
        self.c_api.best_single = _live_best_single
        return PyCapsule_New(<void*>&self.c_api, "lexitrain.LiveApi", NULL)


cdef void _live_set(void* board, int k, int t) noexcept nogil:
    (<LiveBoard>board).set_c(k, t)


cdef int _live_best_single(void* board, int letter) noexcept nogil:
    return (<LiveBoard>board).best_single_c(letter)


cdef int _live_find(void* board, const int* counts, int kinds, int blanks, int** packed, int* cap) noexcept nogil:
    """LiveBoard.find_c, -1 where memory ran out."""
    cdef int total
    total = (<LiveBoard>board).find_c(counts, kinds, blanks, packed, cap)
    return total


cdef class TableLeaves:
    """The exhaustive leave table as the search reads it (see engine/leave_table.py): a value in
    hundredths of a point per leave of up to `longest` tiles (`values`), numbered through `ways`; a longer
    leave's value asked of `longer` (the table's model, remembered), and `bound`, a bound on it
    (LeaveFeatures.bound: per tile by its count, and the rest) standing in for it until it is needed (see
    _value_leaves)."""

    cdef object values_ref, ways_ref   # the arrays the views point into, kept alive
    cdef const short* values
    cdef const int* ways
    cdef int longest
    cdef LeaveTable longer
    cdef long* most                    # the bound by tile (blank last) and count, MAX_RACK + 1 a tile,
    cdef long most_rest                # and the rest of it
    cdef int most_kept                 # the most of a tile the bound counts (more: no bound)

    def __cinit__(self):
        self.most = NULL

    def __init__(self, const short[::1] values not None, const int[::1] ways not None, int longest,
                 LeaveTable longer not None, tuple bound not None):
        cdef int t, n
        self.values_ref, self.ways_ref = values, ways
        self.values, self.ways, self.longest, self.longer = &values[0], &ways[0], longest, longer
        by_tile, self.most_rest = bound
        if len(by_tile) > MAX_LETTERS + 1:
            raise ValueError("a bound for more tiles than the search handles")
        self.most_kept = min(MAX_RACK, min([len(row) for row in by_tile]) - 1)
        self.most = <long*>PyMem_Malloc((MAX_LETTERS + 1) * (MAX_RACK + 1) * sizeof(long))
        if self.most == NULL:
            raise MemoryError()
        for t in range(MAX_LETTERS + 1):
            for n in range(MAX_RACK + 1):
                self.most[t * (MAX_RACK + 1) + n] = by_tile[t][n] if t < len(by_tile) and n <= self.most_kept else 0

    def __dealloc__(self):
        PyMem_Free(self.most)


cdef extern from *:
    """
    /* the bits set, SWAR: __builtin_popcount is a library call where the build may not assume the
       popcnt instruction (1.3% of a simulation's time went to that call) */
    static inline int count_bits(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    """
    int count_bits(unsigned int x) nogil


cdef class LeaveTable:
    """Leave values in hundredths of a point, by the tiles kept (sorted, packed
    into 64 bits), remembered in an open-addressed table; a leave not seen
    before is asked of `value(counts, blanks)` once (holding the GIL: one
    table per thread). Starts again when half full."""

    cdef object value
    cdef int points[MAX_LETTERS]
    cdef uint64_t* keys
    cdef long* cents
    cdef int size, used

    def __cinit__(self, value, points, int size=1 << 17):
        cdef int k
        self.value = value
        for k in range(min(len(points), MAX_LETTERS)):
            self.points[k] = points[k]
        self.size = size
        self.used = 0
        self.keys = <uint64_t*>PyMem_Malloc(size * sizeof(uint64_t))
        self.cents = <long*>PyMem_Malloc(size * sizeof(long))
        if self.keys == NULL or self.cents == NULL:
            raise MemoryError()
        memset(self.keys, 0, size * sizeof(uint64_t))

    def __dealloc__(self):
        PyMem_Free(self.keys)
        PyMem_Free(self.cents)

    cdef long asked(self, int* tiles, int n, int letters) except? -1 with gil:
        """The model's value of the leave `tiles`."""
        cdef int k, blanks = 0
        cdef list counts = [0] * letters
        for k in range(n):
            if tiles[k] == letters:
                blanks += 1
            else:
                counts[tiles[k]] += 1
        return self.value(tuple(counts), blanks)

    cdef long look_up(self, uint64_t key, int* tiles, int n, int letters) except? -1 nogil:
        cdef int slot = <int>((key * 0x9E3779B97F4A7C15ULL) >> 40) & (self.size - 1)
        cdef long cents
        while self.keys[slot]:
            if self.keys[slot] == key:
                return self.cents[slot]
            slot = (slot + 1) & (self.size - 1)
        cents = self.asked(tiles, n, letters)
        if 2 * (self.used + 1) > self.size:
            memset(self.keys, 0, self.size * sizeof(uint64_t))
            self.used = 0
            slot = <int>((key * 0x9E3779B97F4A7C15ULL) >> 40) & (self.size - 1)
        self.keys[slot] = key
        self.cents[slot] = cents
        self.used += 1
        return cents

    cdef long kept(self, uint32_t rem, int* slot_tile, int in_rack, int letters) except? -1 nogil:
        """The model's value of keeping the rack slots in `rem` (the bag holding tiles)."""
        cdef int k, n = 0
        cdef uint64_t key = 1  # a leading 1 keeps every key (the empty leave's too) off 0, the free mark
        cdef int tiles[MAX_RACK]
        for k in range(in_rack):
            if rem >> k & 1:
                if n == 10:
                    with gil:
                        raise ValueError("a leave of more than 10 tiles does not fit a table key")
                key = key << 6 | <uint64_t>(slot_tile[k] + 1)
                tiles[n] = slot_tile[k]
                n += 1
        return self.look_up(key, tiles, n, letters)


cdef bint _exchange_before(_Search s, uint32_t a, uint32_t b) noexcept nogil:
    """exchange_order: fewer tiles, then more of the earlier letters, then more blanks."""
    cdef int size_a = count_bits(a), size_b = count_bits(b), k, ca, cb
    if size_a != size_b:
        return size_a < size_b
    for k in range(s.letters):
        ca = count_bits(a & s.slots[k])
        cb = count_bits(b & s.slots[k])
        if ca != cb:
            return ca > cb
    return count_bits(a & s.blank_slots) > count_bits(b & s.blank_slots)


cdef bint _prefix(uint32_t part, uint32_t run) noexcept nogil:
    """Is `part` the lowest bits of the contiguous run of bits `run` (a tile's slots put back in order)?"""
    if not part:
        return True
    part >>= lowest_bit(run)
    return (part & (part + 1)) == 0


cdef struct Move:
    # the move chosen by `_choose`: its kind (PLAY, EXCHANGE, PASS), its equity in hundredths (for an
    # exchange or the pass, the value of the tiles kept), its score and the rack slots it keeps; a
    # play's tiles are the search's `best_play`
    int kind
    long equity
    long score
    uint32_t kept


cdef enum:
    PLAY = 0
    EXCHANGE = 1
    PASS = 2


cdef struct Valuation:
    # how `_choose` values the tiles kept while the bag holds tiles: the exhaustive table for leaves of
    # up to `longest` tiles (`values` NULL: none), any other through `cache` (a LeaveTable); where the
    # table gives a bound on a longer leave (`most`, `most_rest`, `most_kept`: see TableLeaves; NULL:
    # none), the whole rack's value (the pass's) is asked only where the pass may beat the best move
    # (`_decide`)
    const short* values
    const int* ways
    int longest
    void* cache
    const long* most
    long most_rest
    int most_kept


cdef void _valued_by(Valuation* how, TableLeaves table, LeaveTable cache) noexcept:
    """Fill `how`: leaves of up to the table's longest by `table` (None: no table), with its bound on a
    longer one (see TableLeaves), and any other leave asked of `cache`."""
    how.cache = <void*>cache
    how.most = NULL
    if table is None:
        how.values, how.ways, how.longest = NULL, NULL, 0
    else:
        how.values, how.ways, how.longest = table.values, table.ways, table.longest
        how.most, how.most_rest, how.most_kept = table.most, table.most_rest, table.most_kept


cdef long _leave_index(_Search s, uint32_t kept, const int* ways, int longest) noexcept nogil:
    """The place in the exhaustive table (see engine/leave_table.py) of the tiles on the rack slots `kept`
    (at most `longest` of them): leaves by size, then by the count of each tile in set order, fewest
    first. Walked over the kept slots alone (a tile's slots side by side, in set order)."""
    cdef int size = count_bits(kept), left = size, t, n, v, j
    cdef long index = 0
    cdef uint32_t run
    for v in range(size):
        index += ways[v]  # every leave of a smaller size
    while kept:
        j = lowest_bit(kept)
        t = s.slot_tile[j]
        run = s.blank_slots if t == s.letters else s.slots[t]
        n = count_bits(kept & run)
        for v in range(n):
            index += ways[(t + 1) * (longest + 1) + left - v]
        left -= n
        kept &= ~run
    return index


cdef int _value_leaves(_Search s, Valuation* how, int bag) except -1 nogil:
    """`s.leave[rem]` for every subset `rem` of the rack's slots: the tiles kept's value (minus twice their
    points with the bag empty), and the best by the number of tiles played (`best_leave`). A whole rack
    longer than the table's leaves is the pass's alone: where the table bounds it (`how.most`), the bound
    stands in and the model is asked only where the pass may be best (`_decide`; a Python call a rack,
    7% of the playouts' instructions)."""
    cdef uint32_t rem, low
    cdef int n, size, points
    cdef long* grown
    cdef long index[1 << 8]            # each subset's place in the table, from the subset less its first slot's
    if s.leave_cap < <int>s.whole + 1:
        grown = <long*>PyMem_RawRealloc(s.leave, (s.whole + 1) * sizeof(long))
        if grown == NULL:
            return _no_memory()
        s.leave = grown
        grown = <long*>PyMem_RawRealloc(s.kept_best, (s.whole + 1) * sizeof(long))
        if grown == NULL:
            return _no_memory()
        s.kept_best, s.leave_cap = grown, s.whole + 1
    for n in range(s.in_rack + 1):
        s.best_leave[n] = NO_PLAY
    s.whole_cache = NULL
    index[0] = 0
    for rem in range(s.whole + 1):
        size = count_bits(rem)
        if bag == 0:
            points = 0
            for n in range(s.in_rack):
                if rem >> n & 1 and s.slot_tile[n] < s.letters:
                    points += s.points[s.slot_tile[n]]
            s.leave[rem] = -200 * points
        elif how.values != NULL and size <= how.longest and s.in_rack <= 8:
            # the first slot's tile is the lowest tile kept: taking one away moves the place by the leaves of
            # one tile fewer and that tile's step at this size alone (see _leave_index)
            if rem:  # (rem ^ low came first, and is no longer)
                low = rem & (~rem + 1)
                index[rem] = index[rem ^ low] + how.ways[size - 1] + \
                    how.ways[(s.slot_tile[lowest_bit(low)] + 1) * (how.longest + 1) + size]
            s.leave[rem] = how.values[index[rem]]
        elif how.values != NULL and size <= how.longest:
            s.leave[rem] = how.values[_leave_index(s, rem, how.ways, how.longest)]
        elif rem == s.whole and _whole_bound(s, how, &s.leave[rem]):
            s.whole_cache = how.cache  # the bound stands in for the pass's value until `_decide` needs it
        else:
            s.leave[rem] = (<LeaveTable>how.cache).kept(rem, s.slot_tile, s.in_rack, s.letters)
        if s.leave[rem] > s.best_leave[s.in_rack - size]:
            s.best_leave[s.in_rack - size] = s.leave[rem]
        s.kept_best[rem] = s.leave[rem]  # the best leave of the tiles of `rem`, any of them kept
        low = rem
        while low:
            s.kept_best[rem] = max(s.kept_best[rem], s.kept_best[rem ^ (low & (~low + 1))])
            low &= low - 1
    return 0


cdef bint _whole_bound(_Search s, Valuation* how, long* bound) noexcept nogil:
    """A bound on the value of keeping the whole rack (see TableLeaves), into `bound`; False where there is
    none."""
    cdef int t, n
    cdef long total = how.most_rest
    if how.most == NULL:
        return False
    for t in range(s.letters + 1):
        n = count_bits(s.blank_slots if t == s.letters else s.slots[t])
        if n > how.most_kept:
            return False
        total += how.most[t * (MAX_RACK + 1) + n]
    bound[0] = total
    return True


cdef void _rack_words(_Search s, const WordBits* words) noexcept nogil:
    """What `shadow` asks of the rack: the lengths of the words its tiles make alone (`rack_words`, a bit
    per length: the word map asked of every subset of its slots, two blanks making anything), the best
    leave beside each such word (`word_leave`), and the whole rack's key in the word map."""
    cdef uint64_t keys[1 << 8]
    cdef int blanks[1 << 8]
    cdef uint32_t rem, low
    cdef int slot, n
    s.words = NULL
    s.rack_words = 0xFFFFFFFF
    s.rack_key, s.rack_blanks = 0, count_bits(s.blank_slots)
    memcpy(s.word_leave, s.best_leave, sizeof(s.word_leave))
    if words == NULL or s.in_rack > 8:
        return  # no word map: every length, and `_made` says yes
    s.words = words
    s.rack_words = 0
    for n in range(s.in_rack + 1):
        s.word_leave[n] = NO_PLAY
    keys[0], blanks[0] = 0, 0
    for rem in range(1, s.whole + 1):
        low = rem & (~rem + 1)
        slot = lowest_bit(low)
        keys[rem], blanks[rem] = keys[rem ^ low], blanks[rem ^ low]
        if s.slot_tile[slot] == s.letters:
            blanks[rem] += 1
        else:
            keys[rem] += words.key[s.slot_tile[slot]]
        n = count_bits(rem)
        if s.leave[s.whole ^ rem] > s.word_leave[n] and _made(words, keys[rem], blanks[rem]):
            s.rack_words |= 1u << n
            s.word_leave[n] = s.leave[s.whole ^ rem]
    s.rack_key = keys[s.whole]


cdef int _choose(_Search s, Setting st, const int* squares, Valuation* how, int bag, bint may_exchange,
                 long long ticket, Move* out) except -1 nogil:
    """The move of best equity for the rack set on `s` (its word starts made) on the board `squares`,
    without making a play object for any candidate: every play (kept as it is found only if it beats
    the best so far), every exchange when `may_exchange`, and the pass. Ties go as engine/equity.py
    orders them: higher score, then a play before an exchange before the pass, then by placement, or
    for exchanges fewest tiles, then more of the earlier tiles. A `ticket` (0 or more) draws among the
    plays tied at the best equity and score instead: the one numbered `ticket` modulo their count, in
    placement order (engine/selfplay.py draws the tickets from the game's seed)."""
    _ready_rack(s, st, how, bag)
    return _choose_ready(s, st, squares, may_exchange, ticket, out)


cdef int _ready_rack(_Search s, Setting st, Valuation* how, int bag) except -1 nogil:
    """What choosing a move asks of the rack set on `s` whatever the board: its leaves' values (which
    differ only with the bag empty or not) and the words its tiles make (see _value_leaves, _rack_words)."""
    cdef int n
    _value_leaves(s, how, bag)
    _rack_words(s, st.made_words)
    s.swap_ready = False  # worked out where an exchange may be best (_decide)
    s.swap_most = NO_PLAY
    for n in range(1, s.in_rack + 1):
        s.swap_most = max(s.swap_most, s.best_leave[n])
    return 0


cdef void _best_exchange(_Search s) noexcept nogil:
    """The best exchange (`swap`, the slots put back; 0: none), by the value of the tiles kept
    (`swap_cents`), then fewest put back, then more of the earlier tiles; each multiset of tiles put back
    once (the lowest slots of each tile)."""
    cdef uint32_t given, top = 0
    cdef long top_cents = 0, hold
    cdef int k, runs = 0
    cdef uint32_t run[MAX_RACK]        # each tile's slots on the rack
    cdef bint canonical
    for k in range(s.letters):
        if s.slots[k]:
            run[runs] = s.slots[k]
            runs += 1
    if s.blank_slots:
        run[runs] = s.blank_slots
        runs += 1
    for given in range(1, s.whole + 1):
        canonical = True
        k = 0
        while canonical and k < runs:
            canonical = _prefix(given & run[k], run[k])
            k += 1
        if not canonical:
            continue
        hold = s.leave[s.whole ^ given]
        if top == 0 or hold > top_cents or hold == top_cents and _exchange_before(s, given, top):
            top, top_cents = given, hold
    s.swap, s.swap_cents = top, top_cents


cdef int _choose_ready(_Search s, Setting st, const int* squares, bint may_exchange, long long ticket,
                       Move* out) except -1 nogil:
    """`_choose` on a rack made ready (`_ready_rack`)."""
    s.choosing = True
    s.have_best = False
    s.keep_ties = ticket >= 0
    s.n_found = 0
    if s.in_rack:
        _search_at(s, st, squares)
        if s.keep_ties:
            s.draw_tie(ticket)
    return _decide(s, may_exchange, out)


cdef int _decide(_Search s, bint may_exchange, Move* out) except -1 nogil:
    """The move, the best play found on `s` (if any) weighed against the best exchange where `may_exchange`
    (`_best_exchange`, once a rack, where one may beat the play), and the pass."""
    cdef uint32_t top = 0
    cdef long top_cents = 0, hold
    hold = s.leave[s.whole]
    if may_exchange and not (s.have_best and s.swap_most <= s.best_equity and hold <= s.best_equity):
        if not s.swap_ready:
            _best_exchange(s)
            s.swap_ready = True
        top, top_cents = s.swap, s.swap_cents
    if s.whole_cache != NULL and not (s.have_best and hold <= s.best_equity or top and hold <= top_cents):
        # `hold` is a bound (see _value_leaves) and the pass may be best: its value asked of the model
        hold = (<LeaveTable>s.whole_cache).kept(s.whole, s.slot_tile, s.in_rack, s.letters)
        s.leave[s.whole], s.whole_cache = hold, NULL
    # a play, else an exchange, else the pass, unless a later kind has more equity
    if s.have_best and not (top and top_cents > s.best_equity) and hold <= s.best_equity:
        out.kind, out.equity, out.score, out.kept = PLAY, s.best_equity, s.best_score, s.best_rem
    elif top and hold <= top_cents:
        out.kind, out.equity, out.score, out.kept = EXCHANGE, top_cents, 0, s.whole ^ top
    else:
        out.kind, out.equity, out.score, out.kept = PASS, hold, 0, s.whole
    return 0


def best(Setting setting not None, list squares, counts, int blanks, TableLeaves leaves not None, Turn turn):
    """The move of best equity for the rack `counts` (by letter) and `blanks` on the board `squares` (see
    `_choose`) on the `turn` (the bag, an exchange allowed, a ticket): (kind, equity, slots
    kept, leave index, play), kind 0 a play (`play` an instance of the setting's class), 1 an exchange, 2 a
    pass; equity in hundredths of a point; the slots kept a mask over the rack's tiles in set order, blanks
    last (for an exchange, the tiles kept); the leave index the kept tiles' place in `table` (-1 when they
    are not in it). While the bag holds tiles a leave of up to `longest` tiles is worth its table entry,
    the whole rack when it is longer what the table's model says (asked only where the pass may be best);
    with the bag empty, minus twice its points."""
    cdef _Search s = _prepare(setting, counts, blanks, False)
    cdef _Squares board = _Squares(squares)
    cdef Valuation how
    cdef Move move
    setting.words()
    _valued_by(&how, leaves, leaves.longer)
    _choose(s, setting, board.at, &how, turn.bag, turn.may_exchange, turn.ticket, &move)
    if move.kind == PLAY:
        index = _leave_index(s, move.kept, leaves.ways, leaves.longest) \
            if count_bits(move.kept) <= leaves.longest and turn.bag else -1
        return (PLAY, move.equity, move.kept, index, s.best_as(setting.cls))
    if move.kind == EXCHANGE:
        return (EXCHANGE, move.equity, move.kept, _leave_index(s, move.kept, leaves.ways, leaves.longest), None)
    return (PASS, move.equity, move.kept, -1, None)


def best_valued(Setting setting not None, list squares, list counts, LeaveTable leaves not None, int bag,
                bint exchange) -> tuple:
    """The move of best equity, as `best` chooses it, with every leave valued
    through `leaves` (any leave model, asked once per leave) instead of a
    table: (kind, play, given, score, leave) for the rack `counts` (by tile,
    blanks last): kind 0 a play (of the setting's class), 1 an exchange (`given` the tiles
    put back, counts by tile with blanks last), 2 the pass; `leave` the value
    of the tiles kept, in hundredths. `exchange`: the bag allows one."""
    cdef int letters = setting.letters, k
    cdef _Search s = _prepare(setting, counts[:letters], counts[letters], False)
    cdef _Squares board = _Squares(squares)
    cdef Valuation how
    cdef Move move
    cdef uint32_t given
    setting.words()
    _valued_by(&how, None, leaves)
    _choose(s, setting, board.at, &how, bag, exchange, -1, &move)
    if move.kind == PLAY:
        return (PLAY, s.best_as(setting.cls), None, move.score, move.equity - 100 * move.score)
    if move.kind == EXCHANGE:
        given = s.whole ^ move.kept
        return (EXCHANGE, None, tuple([count_bits(given & s.slots[k]) for k in range(letters)])
                + (count_bits(given & s.blank_slots),), 0, move.equity)
    return (PASS, None, None, 0, move.equity)


# -- whole self-play games --------------------------------------------------------------

cdef enum:
    TWISTER_WORDS = 624                # MT19937's state, as Python's random module keeps it
    TWISTER_SHIFT = 397


cdef struct Twister:
    # a Python random.Random taken over (its state) to draw in C what it would draw
    uint32_t mt[TWISTER_WORDS]
    int index


cdef int _take_twister(Twister* tw, object rng) except -1:
    """Take over `rng`'s state (random.Random.getstate: 624 words and the index of the next)."""
    cdef tuple state = rng.getstate()[1]
    cdef int k
    if len(state) != TWISTER_WORDS + 1:
        raise ValueError("not a Mersenne Twister's state")
    for k in range(TWISTER_WORDS):
        tw.mt[k] = state[k]
    tw.index = state[TWISTER_WORDS]
    return 0


cdef int _seed_twister(Twister* tw, object seed) except -1:
    """Seed as random.Random(seed) does for an int (init_by_array over the 32-bit words of abs(seed), lowest
    first): what Bag(tiles, seed) draws with, without the 625 ints its state would make."""
    cdef uint32_t* mt = tw.mt
    cdef list key = []
    cdef object rest = abs(seed)
    cdef int i = 1, j = 0, k, n
    while True:
        key.append(rest & 0xFFFFFFFF)
        rest >>= 32
        if not rest:
            break
    n = len(key)
    mt[0] = 19650218U
    for k in range(1, TWISTER_WORDS):
        mt[k] = 1812433253U * (mt[k - 1] ^ (mt[k - 1] >> 30)) + <uint32_t>k
    for k in range(max(TWISTER_WORDS, n), 0, -1):
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + <uint32_t>key[j] + <uint32_t>j
        i += 1
        j += 1
        if i >= TWISTER_WORDS:
            mt[0] = mt[TWISTER_WORDS - 1]
            i = 1
        if j >= n:
            j = 0
    for k in range(TWISTER_WORDS - 1, 0, -1):
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - <uint32_t>i
        i += 1
        if i >= TWISTER_WORDS:
            mt[0] = mt[TWISTER_WORDS - 1]
            i = 1
    mt[0] = 0x80000000U
    tw.index = TWISTER_WORDS
    return 0


cdef uint32_t _next_word(Twister* tw) noexcept nogil:
    """The next 32 random bits, as random.Random.getrandbits(32) gives them (genrand_uint32)."""
    cdef uint32_t y
    cdef uint32_t* mt = tw.mt
    cdef int k
    if tw.index >= TWISTER_WORDS:
        for k in range(TWISTER_WORDS):
            y = (mt[k] & 0x80000000U) | (mt[(k + 1) % TWISTER_WORDS] & 0x7fffffffU)
            mt[k] = mt[(k + TWISTER_SHIFT) % TWISTER_WORDS] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        tw.index = 0
    y = mt[tw.index]
    tw.index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef int _below(Twister* tw, int n) noexcept nogil:
    """random.Random.randrange(n), n > 0: n.bit_length() bits drawn until they fall below n."""
    cdef int bits = 0
    cdef uint32_t r
    while n >> bits:
        bits += 1
    r = _next_word(tw) >> (32 - bits)
    while r >= <uint32_t>n:
        r = _next_word(tw) >> (32 - bits)
    return r


cdef class SelfPlay:
    """Whole games of the equity player in C (engine/selfplay.py's `SelfPlayer.play`): each turn the move
    `best` chooses on a board kept up to date a tile at a time (`live`, once the first play is down),
    made with the bag, the draws and the end-of-game rules of game.Game, move for move: a rack is its
    tiles in the order drawn, a play takes each tile's first copy off it, an exchange puts its tiles back
    in their order on the rack after drawing, and the bag draws as engine/bag.py's does from its
    random.Random (its generator seeded, or taken over, here), so a seed gives the same game as the
    reference.

    `contents`: the full bag in Bag's order, as tile numbers (a blank is the number of letters)."""

    cdef Setting st
    cdef _Search s
    cdef int* contents
    cdef int* bag
    cdef int* squares
    cdef int n_contents, n_bag
    cdef Twister draws
    cdef int racks[2][MAX_RACK]
    cdef int held[2]

    def __cinit__(self):
        self.contents = self.bag = self.squares = NULL

    def __init__(self, Setting setting not None, list contents):
        cdef int k
        self.st = setting
        if setting.rack_size > MAX_RACK:
            raise ValueError("outside the compiled search's limits")
        setting.words()
        self.s = _new_search(setting, False, setting.rack_size)
        self.n_contents = len(contents)
        self.contents = <int*>PyMem_Malloc(max(self.n_contents, 1) * sizeof(int))
        self.bag = <int*>PyMem_Malloc(max(self.n_contents, 1) * sizeof(int))
        self.squares = <int*>PyMem_Malloc(setting.size * sizeof(int))
        if self.contents == NULL or self.bag == NULL or self.squares == NULL:
            raise MemoryError()
        for k in range(self.n_contents):
            if not 0 <= contents[k] <= setting.letters:
                raise ValueError("not a tile of the setting's set")
            self.contents[k] = contents[k]

    def __dealloc__(self):
        PyMem_Free(self.contents)
        PyMem_Free(self.bag)
        PyMem_Free(self.squares)

    cdef void draw(self, int player, int wanted) noexcept nogil:
        """Up to `wanted` tiles onto the player's rack, as Bag.draw takes them: a random one swapped with
        the last and taken off the end."""
        cdef int k, t
        for k in range(min(wanted, self.n_bag)):
            t = _below(&self.draws, self.n_bag)
            self.racks[player][self.held[player]] = self.bag[t]
            self.held[player] += 1
            self.bag[t] = self.bag[self.n_bag - 1]
            self.n_bag -= 1

    cdef long rack_points(self, int player) noexcept nogil:
        cdef int k
        cdef long total = 0
        for k in range(self.held[player]):
            if self.racks[player][k] < self.st.letters:
                total += self.st.points[self.racks[player][k]]
        return total

    def play(self, TableLeaves first not None, TableLeaves second not None, seed, ties, int max_turns,
             int exchange_limit, int max_zero_turns) -> tuple:
        """One game, the bag drawn as Bag(tiles, seed) draws it (`seed` an int), the player moving first
        valuing leaves by `first`, the other by `second`, with a ticket a turn from `ties` (a
        random.Random, or None: the first of tied plays by placement): (turns, scores), each turn
        (kind, player, score, equity, tiles in the bag before it, leave index, what) as `best` gives
        them, `what` the play (of the setting's class) or the tiles an exchange put back (tile numbers,
        in their order on the rack) or None."""
        cdef Setting st = self.st
        cdef _Search s = self.s
        cdef Twister tickets
        cdef TableLeaves table
        cdef Valuation how[2]
        cdef Move move
        cdef Found* play
        cdef int counts[MAX_LETTERS + 1]
        cdef int need[MAX_LETTERS + 1]
        cdef int back[MAX_RACK]
        cdef int keep[MAX_RACK]
        cdef int turn = 0, zero_turns = 0, step, n, t, k, in_bag, put, kept, player
        cdef long scores[2]
        cdef long long ticket
        cdef bint over = False, with_ties = ties is not None, was_empty
        cdef list turns = []
        cdef tuple tiles
        _seed_twister(&self.draws, seed)
        if with_ties:
            _take_twister(&tickets, ties)
        _valued_by(&how[0], first, first.longer)
        _valued_by(&how[1], second, second.longer)
        memcpy(self.bag, self.contents, self.n_contents * sizeof(int))
        self.n_bag = self.n_contents
        for k in range(st.size):
            self.squares[k] = EMPTY
        s.live = False
        self.held[0] = self.held[1] = 0
        scores[0] = scores[1] = 0
        self.draw(0, st.rack_size)
        self.draw(1, st.rack_size)
        for step in range(max_turns):
            if over:
                break
            table = first if turn == 0 else second
            memset(counts, 0, (st.letters + 1) * sizeof(int))
            for k in range(self.held[turn]):
                counts[self.racks[turn][k]] += 1
            in_bag = self.n_bag
            ticket = _next_word(&tickets) if with_ties else -1
            s.set_rack_c(counts, st.letters, counts[st.letters])
            s.left_parts(min(s.in_rack - 1, max(st.rows, st.cols) - 1), False)
            _ready_rack(s, st, &how[turn], in_bag)
            _choose_ready(s, st, self.squares, in_bag >= max(exchange_limit, 1), ticket, &move)
            if move.kind == PLAY:
                play = &s.best_play
                was_empty = not s.live
                for n in range(play.length):
                    if play.through >> n & 1:
                        continue
                    t = play.tiles[n]
                    k = (play.row + n) * st.cols + play.col if play.down else play.row * st.cols + play.col + n
                    self.squares[k] = t
                    if not was_empty:
                        s.set_both(k, t, st.rows, st.cols)
                    t = st.letters if t >= BLANK_FLAG else t
                    k = 0
                    while self.racks[turn][k] != t:
                        k += 1
                    self.held[turn] -= 1
                    memmove(&self.racks[turn][k], &self.racks[turn][k + 1], (self.held[turn] - k) * sizeof(int))
                if was_empty:  # the first play: the board loaded whole, then kept up to date
                    _load_board(s, st, self.squares)
                    s.live = True
                self.draw(turn, st.rack_size - self.held[turn])
                scores[turn] += play.score
                zero_turns = 0 if play.score else zero_turns + 1
                turns.append((PLAY, turn, play.score, move.equity, in_bag,
                              _leave_index(s, move.kept, table.ways, table.longest)
                              if count_bits(move.kept) <= table.longest and in_bag else -1, s.best_as(st.cls)))
            elif move.kind == EXCHANGE:
                memset(need, 0, (st.letters + 1) * sizeof(int))
                for k in range(s.in_rack):
                    if not move.kept >> k & 1:
                        need[s.slot_tile[k]] += 1
                put = kept = 0
                for k in range(self.held[turn]):  # put back in their order on the rack, as Game.exchange
                    t = self.racks[turn][k]
                    if need[t]:
                        need[t] -= 1
                        back[put] = t
                        put += 1
                    else:
                        keep[kept] = t
                        kept += 1
                memcpy(self.racks[turn], keep, kept * sizeof(int))
                self.held[turn] = kept
                self.draw(turn, put)
                memcpy(&self.bag[self.n_bag], back, put * sizeof(int))
                self.n_bag += put
                zero_turns += 1
                tiles = tuple([back[k] for k in range(put)])
                turns.append((EXCHANGE, turn, 0, move.equity, in_bag,
                              _leave_index(s, move.kept, table.ways, table.longest), tiles))
            else:
                zero_turns += 1
                turns.append((PASS, turn, 0, move.equity, in_bag, -1, None))
            player = turn
            turn = 1 - turn
            if zero_turns >= max_zero_turns:  # six scoreless turns: each loses their own rack's points
                scores[0] -= self.rack_points(0)
                scores[1] -= self.rack_points(1)
                over = True
            if move.kind == PLAY and self.held[player] == 0 and self.n_bag == 0:  # out: twice the other's
                scores[player] += 2 * self.rack_points(1 - player)
                over = True
        return turns, [scores[0], scores[1]]


# -- the simulation's playouts, whole, without the GIL -------------------------------

cdef extern from "math.h" nogil:
    double exp(double x)


cdef class Playout:
    """One thread's playouts of a simulation's candidates (engine/simulation.py's `Playouts.playout`, step
    for step, which the tests hold it to): from the board after a candidate, the opponent's rack and the
    bag dealt, each side in turn makes its move of best equity (`_choose`) and draws from the front of
    the bag, for `plies` moves; the result is the spread, the last mover's leave and the win model's
    chance. `run` plays a deal out for the candidates asked without the GIL, so threads each holding
    their own Playout run side by side (the setting and the leave table are only read; each thread's
    `cache` is its own).

    `candidates`: per candidate (squares after it, the tiles it keeps as counts by tile with blanks last,
    the tiles it puts back, its score, the value of its leave in hundredths, whether it plays out the
    whole rack). `opponent`: their rack when the position gives it (counts, blanks last), else None.
    `rules`: the plies, the exchange limit and the spread before the candidate. `bands`: the win model's
    (centre, slope, intercept) per band of unseen tiles."""

    cdef Setting st
    cdef _Search s0, s1                # each side's search: its rack's word starts and leaves kept while
                                       # its rack stays the same (the opponent's first rack is the same
                                       # after every candidate of a deal), the board kept up to date
    cdef int known[2][MAX_LETTERS + 1] # the rack each side's search is ready for
    cdef int known_empty[2]            # and whether the bag was empty then (-1: none yet)
    cdef char* boards                  # the board after each candidate, worked out once (keep_board)
    cdef size_t board_size
    cdef char* reference               # the board every candidate's holds alike (see keep_boards)
    cdef uint64_t* changed             # per candidate, the lines (across, down) its board changes from it
    cdef bint by_lines                 # the first move after a candidate searches those lines alone
    cdef LineBest line_best[2][MAX_LINE]  # the reference board's best play per line, for the first mover's
    cdef bint lines_ready                 # rack, while it stays the same
    cdef int current                   # the candidate played out
    cdef bint first                    # the move under way is the first after it
    cdef object keep                   # the TableLeaves and LeaveTable read through `how`
    cdef Valuation how
    cdef int n, size, types, letters, plies, exchange_limit, deal_cap
    cdef int* cand_squares
    cdef int* cand_leave
    cdef int* cand_given
    cdef long* cand_score
    cdef long* cand_cents
    cdef char* cand_out
    cdef bint fixed
    cdef int opponent[MAX_LETTERS + 1]
    cdef int points[MAX_LETTERS + 1]
    cdef long spread0
    cdef int n_bands
    cdef double centres[64]
    cdef double slopes[64]
    cdef double intercepts[64]
    # the playout under way
    cdef int* squares
    cdef int racks[2][MAX_LETTERS + 1]
    cdef int* deal
    cdef int* bag
    cdef int n_bag, drawn, player, last
    cdef long spread, last_cents
    cdef bint over

    def __cinit__(self):
        self.cand_squares = self.cand_leave = self.cand_given = NULL
        self.cand_score = self.cand_cents = NULL
        self.cand_out = NULL
        self.squares = self.deal = self.bag = NULL
        self.boards = self.reference = NULL
        self.changed = NULL

    def __init__(self, Setting setting not None, TableLeaves table, LeaveTable cache not None, list candidates,
                 opponent, Rules rules, list bands):
        cdef int k, j, t
        self.st = setting
        self.letters, self.types, self.size = setting.letters, setting.letters + 1, setting.size
        self.s0 = _new_search(setting, False, MAX_RACK)
        self.s1 = _new_search(setting, False, MAX_RACK)
        self.known_empty[0] = self.known_empty[1] = -1
        setting.words()
        self.keep = (table, cache)
        _valued_by(&self.how, table, cache)
        self.n = len(candidates)
        self.plies, self.exchange_limit, self.spread0 = rules.plies, max(rules.exchange_limit, 1), rules.spread
        self.cand_squares = <int*>PyMem_Malloc(max(self.n, 1) * self.size * sizeof(int))
        self.cand_leave = <int*>PyMem_Malloc(max(self.n, 1) * self.types * sizeof(int))
        self.cand_given = <int*>PyMem_Malloc(max(self.n, 1) * self.types * sizeof(int))
        self.cand_score = <long*>PyMem_Malloc(max(self.n, 1) * sizeof(long))
        self.cand_cents = <long*>PyMem_Malloc(max(self.n, 1) * sizeof(long))
        self.cand_out = <char*>PyMem_Malloc(max(self.n, 1))
        self.squares = <int*>PyMem_Malloc(self.size * sizeof(int))
        if not (self.cand_squares and self.cand_leave and self.cand_given and self.cand_score and self.cand_cents
                and self.cand_out and self.squares):
            raise MemoryError()
        for k, (board, leave, given, score, cents, out) in enumerate(candidates):
            for j in range(self.size):
                self.cand_squares[k * self.size + j] = board[j]
            for t in range(self.types):
                self.cand_leave[k * self.types + t] = leave[t]
                self.cand_given[k * self.types + t] = 0
            for t in given:
                self.cand_given[k * self.types + t] += 1
            self.cand_score[k], self.cand_cents[k], self.cand_out[k] = score, cents, bool(out)
        self.keep_boards()
        self.fixed = opponent is not None
        for t in range(self.types):
            self.opponent[t] = opponent[t] if self.fixed else 0
            self.points[t] = setting.points[t] if t < self.letters else 0
        if not 0 < len(bands) <= 64:
            raise ValueError("a win model of 1 to 64 bands")
        self.n_bands = len(bands)
        for k, (centre, slope, intercept) in enumerate(bands):
            self.centres[k], self.slopes[k], self.intercepts[k] = centre, slope, intercept
        self.deal_cap = 0

    def __dealloc__(self):
        PyMem_Free(self.cand_squares)
        PyMem_Free(self.cand_leave)
        PyMem_Free(self.cand_given)
        PyMem_Free(self.cand_score)
        PyMem_Free(self.cand_cents)
        PyMem_Free(self.cand_out)
        PyMem_Free(self.squares)
        PyMem_Free(self.boards)
        PyMem_Free(self.reference)
        PyMem_Free(self.changed)
        PyMem_Free(self.deal)
        PyMem_Free(self.bag)

    def run(self, list order, active) -> list:
        """Every candidate numbered in `active` played out on the deal `order` (the unseen tiles in dealing
        order): (equity in hundredths, spread, win) each."""
        cdef int n_order = len(order), k, m = len(active)
        cdef int* asked
        cdef long* cents
        cdef long* spreads
        cdef double* wins
        if n_order + (self.plies + 2) * MAX_RACK > self.deal_cap:
            PyMem_Free(self.deal)
            PyMem_Free(self.bag)
            self.deal_cap = n_order + (self.plies + 2) * MAX_RACK
            self.deal = <int*>PyMem_Malloc(self.deal_cap * sizeof(int))
            self.bag = <int*>PyMem_Malloc(self.deal_cap * sizeof(int))
            if self.deal == NULL or self.bag == NULL:
                self.deal_cap = 0
                raise MemoryError()
        for k in range(n_order):
            self.deal[k] = order[k]
        asked = <int*>PyMem_Malloc(max(m, 1) * (sizeof(int) + 2 * sizeof(long) + sizeof(double)))
        if asked == NULL:
            raise MemoryError()
        cents = <long*>&asked[m + (m & 1)]
        spreads = &cents[m]
        wins = <double*>&spreads[m]
        try:
            for k in range(m):
                asked[k] = active[k]
                if not 0 <= asked[k] < self.n:
                    raise IndexError("no such candidate")
            with nogil:
                for k in range(m):
                    self.playout(asked[k], n_order, &cents[k], &spreads[k], &wins[k])
            return [(cents[k], spreads[k], wins[k]) for k in range(m)]
        finally:
            PyMem_Free(asked)

    cdef int keep_boards(self) except -1:
        """The board after each candidate, both ways, its cross-checks and anchors worked out once (each
        playout starts from it: `after_candidate`); both searches then keep theirs up to date a tile at a
        time (`live`). And a reference board, the squares every candidate's board holds alike (the
        position's, but for a square each candidate fills alike), with the lines each candidate changes
        from it: a line's plays depend on its own squares, cross-checks and anchors alone, so the
        opponent's first move need only search the lines the candidate changed (`choose_by_lines`)."""
        cdef int k, d, j, line
        cdef int* reference
        cdef _Search s = self.s0, r = self.s1
        self.board_size = s.board_bytes()
        self.boards = <char*>PyMem_Malloc(max(self.n, 1) * self.board_size)
        self.reference = <char*>PyMem_Malloc(self.board_size)
        self.changed = <uint64_t*>PyMem_Malloc(max(self.n, 1) * 2 * sizeof(uint64_t))
        reference = <int*>PyMem_Malloc(self.size * sizeof(int))
        if self.boards == NULL or self.reference == NULL or self.changed == NULL or reference == NULL:
            PyMem_Free(reference)
            raise MemoryError()
        self.by_lines = False
        for j in range(self.size):
            reference[j] = self.cand_squares[j]
            for k in range(1, self.n):
                if self.cand_squares[k * self.size + j] != reference[j]:
                    reference[j] = EMPTY
            self.by_lines = self.by_lines or reference[j] != EMPTY  # an empty board's search is the centre's
        _load_board(r, self.st, reference)
        PyMem_Free(reference)
        r.keep_board(self.reference, False)
        for k in range(self.n):
            _load_board(s, self.st, &self.cand_squares[k * self.size])
            s.keep_board(&self.boards[k * self.board_size], False)
            for d in range(2):
                self.changed[2 * k + d] = 0
                s.use(d, self.st.cols if d else self.st.rows, self.st.rows if d else self.st.cols)
                r.use(d, self.st.cols if d else self.st.rows, self.st.rows if d else self.st.cols)
                for line in range(s.rows):
                    if not s.same_line(r, d, line):
                        self.changed[2 * k + d] |= 1ULL << line
        s.use(False, self.st.rows, self.st.cols)
        r.use(False, self.st.rows, self.st.cols)
        s.live = r.live = True
        self.lines_ready = False
        return 0

    cdef int line_bests(self, _Search s) except -1 nogil:
        """The best play of each line of the reference board for the rack made ready on `s` (the first
        mover's, after every candidate of a deal), each line searched alone."""
        cdef int d, line, longest = min(s.in_rack - 1, max(self.st.rows, self.st.cols) - 1)
        cdef uint64_t lines[2]
        cdef LineBest* best
        s.keep_board(self.reference, True)
        s.choosing, s.keep_ties, s.n_found = True, False, 0
        for d in range(2):
            lines[0] = lines[1] = 0
            for line in range(self.st.cols if d else self.st.rows):
                lines[d] = 1ULL << line
                s.have_best = False
                if s.in_rack:
                    s.anchors_best_first(self.st, self.squares, longest, lines)
                best = &self.line_best[d][line]
                best.have = s.have_best
                if s.have_best:
                    best.equity, best.score, best.rem, best.play = s.best_equity, s.best_score, s.best_rem, \
                        s.best_play
        s.use(False, self.st.rows, self.st.cols)
        s.keep_board(&self.boards[self.current * self.board_size], True)
        self.lines_ready = True
        return 0

    cdef int choose_by_lines(self, _Search s, bint may_exchange, Move* out) except -1 nogil:
        """`_choose_ready` for the first move after the candidate: the best of the reference board's lines
        this candidate left as they were, then a search of the lines it changed alone."""
        cdef int d, line, longest = min(s.in_rack - 1, max(self.st.rows, self.st.cols) - 1)
        cdef const uint64_t* changed = &self.changed[2 * self.current]
        cdef LineBest* best
        if not self.lines_ready:
            self.line_bests(s)
        s.choosing, s.keep_ties, s.n_found, s.have_best = True, False, 0, False
        for d in range(2):
            for line in range(self.st.cols if d else self.st.rows):
                best = &self.line_best[d][line]
                if not (changed[d] >> line) & 1 and best.have and (
                        not s.have_best or _play_before(best.equity, best.score, &best.play, s.best_equity,
                                                        s.best_score, &s.best_play)):
                    s.have_best, s.best_equity, s.best_score, s.best_rem, s.best_play = True, best.equity, \
                        best.score, best.rem, best.play
        if s.in_rack:
            s.anchors_best_first(self.st, self.squares, longest, changed)
        s.use(False, self.st.rows, self.st.cols)
        return _decide(s, may_exchange, out)

    cdef void draw(self, int* rack, int wanted) noexcept nogil:
        """Up to `wanted` tiles from the front of the bag onto `rack`."""
        cdef int take = min(wanted, self.n_bag - self.drawn), k
        for k in range(max(take, 0)):
            rack[self.bag[self.drawn + k]] += 1
        self.drawn += max(take, 0)

    cdef int rack_points(self, const int* rack) noexcept nogil:
        cdef int t, total = 0
        for t in range(self.letters):
            total += rack[t] * self.points[t]
        return total

    cdef int held(self, const int* rack) noexcept nogil:
        cdef int t, total = 0
        for t in range(self.types):
            total += rack[t]
        return total

    cdef int playout(self, int k, int n_order, long* cents, long* spread, double* win) except -1 nogil:
        """Candidate k played out on the deal: the game after it, then `plies` moves (see the class)."""
        cdef int ply
        self.after_candidate(k, n_order)
        for ply in range(0 if self.over else self.plies):
            if self.player == 0:
                self.move(self.s0, ply + 1 < self.plies)
            else:
                self.move(self.s1, ply + 1 < self.plies)
            if self.over:
                break
            self.player ^= 1
        self.result(cents, spread, win)
        return 0

    cdef void after_candidate(self, int k, int n_order) noexcept nogil:
        """The game just after candidate k: the opponent's rack (the position's, or the deal's first
        tiles), the bag the rest of the deal, the mover's rack filled from its front, the tiles an exchange
        put back at its end; over if the candidate went out."""
        cdef int t, n, start
        memcpy(self.squares, &self.cand_squares[k * self.size], self.size * sizeof(int))
        self.s0.keep_board(&self.boards[k * self.board_size], True)
        self.s1.keep_board(&self.boards[k * self.board_size], True)
        self.current, self.first = k, True
        memcpy(self.racks[0], &self.cand_leave[k * self.types], self.types * sizeof(int))
        if self.fixed:
            memcpy(self.racks[1], self.opponent, self.types * sizeof(int))
            start = 0
        else:
            memset(self.racks[1], 0, self.types * sizeof(int))
            start = min(self.st.rack_size, n_order)
            for t in range(start):
                self.racks[1][self.deal[t]] += 1
        self.n_bag = n_order - start
        memcpy(self.bag, &self.deal[start], self.n_bag * sizeof(int))
        self.drawn = 0
        self.spread, self.last_cents, self.player, self.last, self.over = self.cand_score[k], self.cand_cents[k], 1, 0, False
        self.draw(self.racks[0], self.st.rack_size - self.held(self.racks[0]))
        for t in range(self.types):
            for n in range(self.cand_given[k * self.types + t]):
                self.bag[self.n_bag] = t
                self.n_bag += 1
        if self.cand_out[k] and self.held(self.racks[0]) == 0:
            self.spread += 2 * self.rack_points(self.racks[1])
            self.over = True

    cdef int move(self, _Search s, bint later) except -1 nogil:
        """The side to move chooses its move of best equity (`_choose`, its rack made ready only when it
        changed) and makes it; `later`: another move follows."""
        cdef int* rack = self.racks[self.player]
        cdef int bag = self.n_bag - self.drawn
        cdef Move move
        if self.known_empty[self.player] != (bag == 0) or \
                memcmp(self.known[self.player], rack, self.types * sizeof(int)) != 0:
            s.set_rack_c(rack, self.letters, rack[self.letters])
            s.left_parts(min(s.in_rack - 1, max(self.st.rows, self.st.cols) - 1), False)
            _ready_rack(s, self.st, &self.how, bag)
            memcpy(self.known[self.player], rack, self.types * sizeof(int))
            self.known_empty[self.player] = bag == 0
            if self.player == 1:
                self.lines_ready = False
        if self.first and self.by_lines:
            self.choose_by_lines(s, bag >= self.exchange_limit, &move)
        else:
            _choose_ready(s, self.st, self.squares, bag >= self.exchange_limit, -1, &move)
        self.first = False
        self.make(s, &move, later)
        return 0

    cdef void make(self, _Search s, Move* move, bint later) noexcept nogil:
        """The side to move makes its move: a play put down (on both searches' boards where `later`) and
        its tiles drawn (going out ends the game, with twice the other rack's points), or an exchange; its
        score and leave are counted."""
        cdef int* rack = self.racks[self.player]
        cdef long sign = 1 if self.player == 0 else -1
        cdef Found* play = &s.best_play
        cdef int n, t, put = 0, slot, k
        cdef int back[MAX_RACK]
        if move.kind == PLAY:
            for n in range(play.length):
                if not play.through >> n & 1:
                    t = play.tiles[n]
                    k = (play.row + n) * self.st.cols + play.col if play.down else play.row * self.st.cols + play.col + n
                    self.squares[k] = t
                    if later:
                        self.s0.set_both(k, t, self.st.rows, self.st.cols)
                        self.s1.set_both(k, t, self.st.rows, self.st.cols)
                    rack[self.letters if t >= BLANK_FLAG else t] -= 1
            self.draw(rack, self.st.rack_size - self.held(rack))
        elif move.kind == EXCHANGE:
            for slot in range(s.in_rack):
                if not move.kept >> slot & 1:
                    back[put] = s.slot_tile[slot]
                    rack[back[put]] -= 1
                    put += 1
            self.draw(rack, put)
            for n in range(put):
                self.bag[self.n_bag] = back[n]
                self.n_bag += 1
        self.spread += sign * move.score
        self.last = self.player
        self.last_cents = move.equity - 100 * move.score if move.kind == PLAY else move.equity
        if move.kind == PLAY and self.held(rack) == 0:
            self.spread += sign * 2 * self.rack_points(self.racks[1 - self.player])
            self.over = True

    cdef void result(self, long* cents, long* spread, double* win) noexcept nogil:
        """A finished game is won, drawn or lost outright; else the spread plus the last mover's leave
        (theirs counted against), and the win model's chance at that spread with the tiles the mover
        cannot see."""
        cdef long total, value
        cdef int unseen
        cdef double ahead, chance
        spread[0] = self.spread
        if self.over:
            total = self.spread0 + self.spread
            cents[0] = self.spread * 100
            win[0] = 1.0 if total > 0 else 0.5 if total == 0 else 0.0
            return
        value = self.spread * 100 + (self.last_cents if self.last == 0 else -self.last_cents)
        cents[0] = value
        unseen = self.n_bag - self.drawn + self.held(self.racks[1 - self.player])
        ahead = <double>(self.spread0 * 100 + value) / 100.0
        chance = self.chance(ahead if self.player == 0 else -ahead, unseen)
        win[0] = chance if self.player == 0 else 1.0 - chance

    cdef double chance(self, double spread, int unseen) noexcept nogil:
        """WinModel.win: the chance the player to move wins, ahead by `spread` with `unseen` tiles unseen."""
        cdef double slope, intercept, t, z
        cdef int b
        if unseen <= 0:
            return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0
        slope, intercept = self.slopes[self.n_bands - 1], self.intercepts[self.n_bands - 1]
        if unseen <= self.centres[0]:
            slope, intercept = self.slopes[0], self.intercepts[0]
        else:
            for b in range(self.n_bands - 1):
                if unseen <= self.centres[b + 1]:
                    t = (unseen - self.centres[b]) / (self.centres[b + 1] - self.centres[b])
                    slope = self.slopes[b] + t * (self.slopes[b + 1] - self.slopes[b])
                    intercept = self.intercepts[b] + t * (self.intercepts[b + 1] - self.intercepts[b])
                    break
        z = slope * spread + intercept
        if z < -60:
            return 0.0
        if z > 60:
            return 1.0
        return 1.0 / (1.0 + exp(-z))

