# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The endgame search compiled to C: endgame.PythonSearch's algorithm
(negamax, alpha-beta with a null window after the first move, the
transposition table, iterative deepening) with the board, racks, hashes,
plays and table in C arrays, run without the GIL (`root` and `after` let go
of it), and five things the reference leaves out because they only save time:

- plays come from the move generator's LiveBoard through its C entry points
  (`LiveBoard.api`), which keep the board's cross-checks and anchors up to
  date as tiles are played and taken back (only the squares a change
  touches); still once per board and rack, kept in a C hash table with each
  play's squares, tiles and score;
- plays are tried going out first, then by score plus the points of the
  tiles they place plus 15 a tile; a node one move from the horizon is
  valued without visiting its children: by its best play going out and the
  play of the highest score plus points placed (its exact worth there);
- the table keeps two entries a bucket, the deepest searched and the latest;
  it is a `Table`, which a search on another thread (`partner`) shares: each
  entry is written as two 64-bit words, the key folded with the data, so an
  entry read while another thread writes it reads as absent; searches sharing
  it mark the positions they are in and put off those another is in (`negamax`);
- where the opponent (four tiles or fewer) can go out, a play that leaves the
  squares of such a play alone is bounded without a search: at most its score
  less the opponent's going out (`threat_bound`), often enough to refute it;
- a side with one tile that can play it goes out at once with its best play
  (its value, read off the LiveBoard's cross-checks without finding its
  plays: `LiveBoard.best_single`; one whose one tile has no play passes, its plays not looked for),
  and one with two or three tiles or no play is refuted where
  even the opponent's passing to the end would leave it no better (`solo_bound`; two tiles:
  `pair_in_turn`, each one-tile play followed by the other tile's best play on the board after
  it, where the first reading does not refute; three tiles:
  `triple_bound`, the boards after its first plays read off this board's plays, the squares
  beside each first play scored one by one and their words checked in the word graph);
  the other way round, where the opponent holds one to three tiles, the side
  to move may pass and the opponent's own plays bound what it then gets, so a
  position is proved good enough before its own plays are even found
  (`waiting_bound`);
  and a play of a side of two tiles or more that leaves it one or two is refuted,
  its reply not searched, where its score and what the tiles left could get alone
  on the board after it (the same reading as `triple_bound`'s) are no better
  (`play_bound`; kept in the table as the reply's bound); a play of one tile of
  four likewise by the three it leaves (`left_bound`: the plays linked to the tile
  played scored square by square from it, the others this board's).
"""

cimport cython
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef extern from *:
    """
    static inline int popcount(unsigned long long x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_popcountll(x);
    #else
        int n = 0;
        while (x) { x &= x - 1; n++; }
        return n;
    #endif
    }
    /* shared words read and written by several threads at once */
    #include <stdint.h>
    static inline uint64_t load_word(uint64_t* at) {
        return __atomic_load_n(at, __ATOMIC_RELAXED);
    }
    static inline void store_word(uint64_t* at, uint64_t v) {
        __atomic_store_n(at, v, __ATOMIC_RELAXED);
    }
    static inline int load_flag(int* at) { return __atomic_load_n(at, __ATOMIC_RELAXED); }
    static inline void store_flag(int* at, int v) { __atomic_store_n(at, v, __ATOMIC_RELAXED); }
    static inline int load_byte(unsigned char* at) { return __atomic_load_n(at, __ATOMIC_RELAXED); }
    static inline void store_byte(unsigned char* at, unsigned char v) { __atomic_store_n(at, v, __ATOMIC_RELAXED); }
    """
    int popcount(unsigned long long x) nogil
    uint64_t load_word(uint64_t* at) nogil
    void store_word(uint64_t* at, uint64_t v) nogil
    int load_flag(int* at) nogil
    void store_flag(int* at, int v) nogil
    int load_byte(unsigned char* at) nogil
    void store_byte(unsigned char* at, unsigned char v) nogil

from lexitrain.engine._live_api cimport LiveApi
from lexitrain.engine import endgame as _reference
from lexitrain.engine.endgame import OutOfNodes, OutOfTime, Superseded, Zobrist, rack_value
from lexitrain.engine.play import ScoredPlay

from lexitrain.engine import _movegen

# endgame.py's constants, as C values the search reads without the GIL
cdef int EXACT_DEPTH = _reference.EXACT_DEPTH
cdef int INFINITY = _reference.INFINITY
cdef int MAX_ZERO_TURNS = _reference.MAX_ZERO_TURNS
cdef int PLAYS_LIMIT = _reference.PLAYS_LIMIT

cdef enum:
    EMPTY = -1
    BLANK_FLAG = 128
    MAX_SLOTS = 33      # letters and the blank
    MAX_SQUARES = 4096
    EXACT = 0
    LOWER = 1
    UPPER = 2
    NO_MOVE = -1
    PASS = -2
    TABLE_BITS = 24     # 2^24 entries, 256 MB (see Table)
    PAGE_BUCKETS = 7    # 2^7 buckets of two 16-byte slots: a 4 KB page of the table (see Table.written)
    FLAT_FIELDS = 7     # ints before a play's tiles in find_flat's array
    RACK_TILES = 16     # most tiles a play places
    ZERO_KEYS = 7       # MAX_ZERO_TURNS + 1
    TILE_WEIGHT = 15    # points a tile placed adds to a play's place in the order (see load_moves)
    THREATS = 4         # the opponent's plays going out whose reach is worked out (see Search.threat_bound)
    THREAT_TILES = 4    # ... when the opponent holds at most this many tiles
    ZONE_WORDS = 8      # 64-bit words of a threat's reach: boards of up to 512 squares
    CACHE_BITS = 17     # slots of the plays' hash table (at most PLAYS_LIMIT used)
    BUSY_BITS = 16      # slots of the table's marks of the positions being searched (see Search.negamax)
    SOLO_TILES = 7      # most tiles of a rack whose plays `read_solo` reads
    SOLO_PAIRS = 21     # ... and its pairs of tiles
    SEEDS = 32          # plays a bound of three tiles after a play of one reads as seeds (`Search.seeds`)
    DEFER_CAP = 1 << 16 # plays a search may put off at once, over every node of its line
    GRAPH_FIELDS = 3    # words of a word-graph node before its edges (see lexicon/graph.py)
    WILD = 255          # a blank from the rack on a square, its letter not chosen (see word_score)
    # why a search stopped (Search.stopped)
    RUNNING = 0
    STOP_TIME = 1
    STOP_NODES = 2
    STOP_SHARED = 3     # another thread's search of the same endgame said stop (`Table.stop`)
    STOP_MEMORY = 4


cdef struct Slot:
    # a table entry as two words: `check` is the key xor `data`, so a slot two
    # threads wrote at once (one's check, the other's data) matches no key
    uint64_t check
    uint64_t data


cdef struct Entry:
    int value
    int move    # index in the plays of this board and rack, PASS or NO_MOVE
    int depth
    int flag


cdef inline uint64_t pack(int value, int move, int depth, int flag) noexcept nogil:
    """An entry's fields in one word: value (24 bits, signed), move + 2 (22), depth (11), flag (2)."""
    return ((<uint64_t>(value + (1 << 23)) & 0xFFFFFF) | ((<uint64_t>(move + 2) & 0x3FFFFF) << 24)
            | ((<uint64_t>depth & 0x7FF) << 46) | ((<uint64_t>flag & 3) << 57))


cdef inline void unpack(uint64_t data, Entry* e) noexcept nogil:
    e.value = <int>(data & 0xFFFFFF) - (1 << 23)
    e.move = <int>((data >> 24) & 0x3FFFFF) - 2
    e.depth = <int>((data >> 46) & 0x7FF)
    e.flag = <int>((data >> 57) & 3)


cdef inline bint read_entry(Slot* slots, unsigned char* written, uint64_t at, uint64_t key,
                            Entry* e) noexcept nogil:
    """Read the entry of `key` in bucket `at` of a table (`slots`, its `written` pages) into `e`;
    False where it has none (a page never written holds none: it is not read, see Table)."""
    cdef Slot* bucket = &slots[at << 1]
    cdef uint64_t data
    cdef int j
    if load_byte(&written[at >> PAGE_BUCKETS]):
        for j in range(2):
            data = load_word(&bucket[j].data)
            if load_word(&bucket[j].check) ^ data == key:
                unpack(data, e)
                return True
    return False


cdef inline bint settles(Entry* e, int alpha, int beta) noexcept nogil:
    """Does the entry's value settle its position within (alpha, beta) (exact, or a bound outside)?"""
    return e.flag == EXACT or e.flag == LOWER and e.value >= beta or e.flag == UPPER and e.value <= alpha


cdef class Table:
    """The transposition table (2^TABLE_BITS entries in buckets of two), and the flag that
    tells the searches sharing it to stop."""
    cdef Slot* slots
    cdef uint64_t mask
    cdef unsigned char* written  # per page of `slots`: whether an entry was stored there yet
    cdef int stop
    cdef uint64_t* busy          # the positions the searches sharing it are in (NULL: one search)

    def __cinit__(self):
        # zeroed pages from the system, each mapped when first touched: a small endgame pays for the
        # few it uses. A page is never read before it is written (`written`): read first, the system
        # maps its shared zero page and the first write must then take it away from every core the
        # process runs on, one interrupt each (with two threads, a quarter of a small endgame's time)
        self.slots = <Slot*>PyMem_RawCalloc(1 << TABLE_BITS, sizeof(Slot))
        self.written = <unsigned char*>PyMem_RawCalloc(1 << (TABLE_BITS - 1 - PAGE_BUCKETS), 1)
        if self.slots == NULL or self.written == NULL:
            raise MemoryError()
        self.mask = (1 << (TABLE_BITS - 1)) - 1
        self.stop = 0
        self.busy = NULL

    cdef uint64_t* marks(self) except NULL:
        """The marks of the positions being searched, made when a second search first shares the table."""
        if self.busy == NULL:
            self.busy = <uint64_t*>PyMem_RawCalloc(1 << BUSY_BITS, sizeof(uint64_t))
            if self.busy == NULL:
                raise MemoryError()
        return self.busy

    def __dealloc__(self):
        PyMem_RawFree(self.slots)
        PyMem_RawFree(self.written)
        PyMem_RawFree(self.busy)


cdef struct Ranked:
    int at       # where the play starts in the generator's packed array
    int index    # its place there (ties keep it)
    int out      # it goes out
    int gain     # its score plus the points of the tiles it places
    int key


cdef inline bint ranked_before(const Ranked* x, const Ranked* y) noexcept nogil:
    """Going out first, then the higher key, then the generator's order."""
    if x.out != y.out:
        return x.out > y.out
    if x.key != y.key:
        return x.key > y.key
    return x.index < y.index


cdef Ranked* sort_ranked(Ranked* a, Ranked* spare, int n) noexcept nogil:
    """The n plays of `a` put in order (`ranked_before`): runs of 8 by insertion, then merged
    between `a` and `spare` (as many again); the one of the two they end in. In place of qsort,
    whose call of the comparison for each pair and merge buffer made a twentieth of boys1's time."""
    cdef int width = 8, lo, mid, hi, i, j, k
    cdef Ranked x
    cdef Ranked* src = a
    cdef Ranked* dst = spare
    cdef Ranked* was
    lo = 0
    while lo < n:
        hi = min(lo + width, n)
        for i in range(lo + 1, hi):
            x = a[i]
            j = i
            while j > lo and ranked_before(&x, &a[j - 1]):
                a[j] = a[j - 1]
                j -= 1
            a[j] = x
        lo = hi
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if ranked_before(&src[j], &src[i]):
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo = hi
        was = src
        src = dst
        dst = was
        width *= 2
    return src


cdef struct Moves:
    # one board's plays for one rack, going out first, then by score: per play
    # its score and the squares and tiles it fills
    int n
    int n_out       # plays 0 .. n_out - 1 go out
    int top_gain    # the play (not going out) of the highest gain
    int* score
    int* gain       # score plus the points of the tiles placed
    int* first      # play i fills tiles first[i] .. first[i + 1] - 1
    int* square
    int* tile
    int* record     # where play i starts in `flat`
    int* flat       # the generator's packed plays (see _movegen's flat_c)
    int n_zone      # plays going out whose reach `zone` holds (-1: not worked out yet)
    uint64_t zone[THREATS][ZONE_WORDS]  # the squares a play must leave alone for play j to stay as it is
    int pins        # searches under way over these plays (see Search.pin)
    int orphan      # dropped from the cache while pinned: freed at the last unpin


cdef struct SoloPlays:
    # what the bounds of a side of two to seven tiles playing out alone read off its plays (Search.read_solo)
    int n_rack
    int rack[SOLO_TILES]         # its tiles (rack slots)
    int best_one[SOLO_TILES]     # per tile: its best play alone here (-1: none)
    int n_pairs
    int pair_of[SOLO_PAIRS][2]   # the rack's pairs of tiles (slots, the smaller first) ...
    int best_pair[SOLO_PAIRS]    # ... and their best play together here plus the word one makes alone (pair_bound)
    int out              # the best play going out (-INFINITY: none)
    int n_left                  # tiles played alone whose three tiles left were bounded here (`left_bound`) ...
    int left_slot[SOLO_TILES]   # ... their rack slots,
    int left_value[SOLO_TILES]  # ... the `triple_bound` of the tiles left on this board ...
    int left_alpha[SOLO_TILES]  # ... worked out as far as this alpha


cdef int PERMUTATIONS[6][3]
PERMUTATIONS[:] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]


cdef inline bint repeated_left(const int* tiles, int done, int u) noexcept nogil:
    """Is tiles[u] the same tile as one before it not in the mask `done`? Its plays are that one's."""
    cdef int j
    for j in range(u):
        if not done >> j & 1 and tiles[j] == tiles[u]:
            return True
    return False


cdef void free_moves(Moves* m) noexcept nogil:
    if m != NULL:
        PyMem_RawFree(m.score)
        PyMem_RawFree(m.flat)
        PyMem_RawFree(m)


cdef Moves* load_moves(int* flat, int total, int cols, int rack_size, const int* points) noexcept nogil:
    """The generator's packed plays (`flat`, taken over) in the order the search tries them:
    those that go out by score, then the rest by their `gain` (the score plus the points of
    the tiles placed: what the play is worth one move from the search's horizon) plus
    TILE_WEIGHT a tile placed, as playing more tiles brings going out closer (15 measured
    best of 0-30: a third fewer positions on a 7-against-7 endgame of the benchmark), ties
    in the generator's order. NULL where memory ran out."""
    cdef int at = 0, n = 0, i, j, k, length, placed, dr, dc, t, pts, tiles = 0
    cdef unsigned long long through
    cdef Ranked* ranked
    cdef Ranked* order
    cdef Moves* m = <Moves*>PyMem_RawMalloc(sizeof(Moves))
    if m == NULL:
        PyMem_RawFree(flat)
        return NULL
    while at < total:
        n += 1
        tiles += flat[at + 4]
        at += FLAT_FIELDS + flat[at + 4]
    m.n = n
    m.n_out = 0
    m.n_zone = -1
    m.pins = 0
    m.orphan = 0
    m.flat = flat
    # one block: score, gain, first, record (n + 1 each), square, tile (tiles + 1 each)
    m.score = <int*>PyMem_RawMalloc((4 * (n + 1) + 2 * (tiles + 1)) * sizeof(int))
    ranked = <Ranked*>PyMem_RawMalloc(2 * (n + 1) * sizeof(Ranked))  # and as many again to sort them
    if m.score == NULL or ranked == NULL:
        PyMem_RawFree(ranked)
        free_moves(m)
        return NULL
    m.gain = m.score + (n + 1)
    m.first = m.gain + (n + 1)
    m.record = m.first + (n + 1)
    m.square = m.record + (n + 1)
    m.tile = m.square + (tiles + 1)
    at = 0
    for i in range(n):
        length = flat[at + 4]
        through = (<unsigned long long>(<unsigned int>flat[at + 6]) << 32) | <unsigned int>flat[at + 5]
        placed = length - popcount(through)
        pts = 0
        for j in range(length):
            if not (through >> j) & 1:
                t = flat[at + FLAT_FIELDS + j]
                if t < BLANK_FLAG:
                    pts += points[t]
        ranked[i].at = at
        ranked[i].index = i
        ranked[i].out = placed == rack_size
        ranked[i].gain = flat[at] + pts
        ranked[i].key = flat[at] if ranked[i].out else flat[at] + pts + TILE_WEIGHT * placed
        if ranked[i].out:
            m.n_out += 1
        at += FLAT_FIELDS + length
    order = sort_ranked(ranked, ranked + n + 1, n)
    k = 0
    for i in range(n):
        at = order[i].at
        length = flat[at + 4]
        through = (<unsigned long long>(<unsigned int>flat[at + 6]) << 32) | <unsigned int>flat[at + 5]
        m.score[i] = flat[at]
        m.gain[i] = order[i].gain
        m.first[i] = k
        m.record[i] = at
        dr, dc = (1, 0) if flat[at + 3] else (0, 1)
        for j in range(length):
            if not (through >> j) & 1:
                m.square[k] = (flat[at + 1] + dr * j) * cols + flat[at + 2] + dc * j
                m.tile[k] = flat[at + FLAT_FIELDS + j]
                k += 1
    m.first[n] = k
    m.top_gain = m.n_out
    for i in range(m.n_out, n):
        if m.gain[i] > m.gain[m.top_gain]:
            m.top_gain = i
    PyMem_RawFree(ranked)
    return m


cdef list as_plays(Moves* m):
    """The plays as ScoredPlays, in the search's order."""
    cdef int i, j, at, length
    cdef unsigned long long through
    cdef int* v = m.flat
    out = []
    for i in range(m.n):
        at = m.record[i]
        length = v[at + 4]
        through = (<unsigned long long>(<unsigned int>v[at + 6]) << 32) | <unsigned int>v[at + 5]
        letters = tuple([v[at + FLAT_FIELDS + j] for j in range(length)])
        out.append(ScoredPlay(v[at + 1], v[at + 2], bool(v[at + 3]), letters, through, v[at]))
    return out


cdef double now() noexcept nogil:
    """time.monotonic()'s clock."""
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


cdef class Keys:
    """endgame.Zobrist's keys for one kind of board (its squares and letters) in C arrays, made once
    a process (its seed fixes them) for every search of that kind of board: making them costs some
    5 ms, as much as a small endgame's whole search on one thread (each thread's search needs them)."""
    cdef uint64_t* square       # [square * 256 + tile]
    cdef uint64_t rack[2][MAX_SLOTS][17]
    cdef uint64_t zero[ZERO_KEYS]

    def __cinit__(self, int n_squares, int letters):
        cdef int k, t, s, letter, n
        zobrist = Zobrist(n_squares, letters)
        self.square = <uint64_t*>PyMem_RawMalloc(n_squares * 256 * sizeof(uint64_t))
        if self.square == NULL:
            raise MemoryError()
        for k in range(n_squares):
            for t in range(256):
                self.square[k * 256 + t] = zobrist.square[k][t]
        memset(self.rack, 0, sizeof(self.rack))
        for s in range(2):
            for letter in range(letters + 1):
                for n in range(17):
                    self.rack[s][letter][n] = zobrist.rack[s][letter][n]
        for n in range(MAX_ZERO_TURNS + 1):
            self.zero[n] = zobrist.zero[n]

    def __dealloc__(self):
        PyMem_RawFree(self.square)


cdef dict made_keys = {}  # (squares, letters) -> Keys


cdef Keys keys_for(int n_squares, int letters):
    found = made_keys.get((n_squares, letters))
    if found is None:
        found = made_keys[n_squares, letters] = Keys(n_squares, letters)
    return found


@cython.final  # its methods called directly, not through a table of methods: the C compiler inlines the small ones
cdef class Search:
    """The compiled twin of endgame.PythonSearch (same methods the solver calls).
    `partner()` makes another search of the same position, sharing this one's
    table, for another thread."""
    cdef object board
    cdef object generator
    cdef int cols, rows, letters, n_squares
    cdef int sq[MAX_SQUARES]
    cdef int points[MAX_SLOTS]
    cdef Keys keys
    cdef uint64_t* zsquare      # [square * 256 + tile], the keys'
    cdef uint64_t zrack[2][MAX_SLOTS][17]
    cdef uint64_t zzero[ZERO_KEYS]
    cdef int rack[2][MAX_SLOTS]
    cdef int value[2]
    cdef int size[2]
    cdef uint64_t rack_key[2][2]
    cdef uint64_t board_key
    cdef Table table
    cdef Slot* slots
    cdef uint64_t table_mask
    cdef unsigned char* written  # the table's pages stored to
    cdef int* stop_all           # the stop flag of the searches sharing the table (its own)
    cdef int halt                # this search alone told to stop (`halt_search`)
    cdef uint64_t* busy          # the table's marks of positions being searched (NULL: searching alone)
    cdef bint exclusive          # the next position entered is put off if another search is in it
    cdef bint deferred           # ... and it was: the value returned means nothing
    cdef int* defer_stack        # the plays put off, node after node down the line
    cdef int defer_top
    # the plays found, by the hash of board and rack (open addressing)
    cdef uint64_t* cache_key
    cdef Moves** cache_moves
    cdef int cache_count
    cdef long cache_round        # times the cache was emptied (the Python lists of plays follow it)
    cdef dict listed             # the address of plays kept -> them as ScoredPlays, for the Python-facing methods
    cdef long listed_round       # the cache round `listed` belongs to
    cdef object live             # the move generator's LiveBoard: the board as of the last generation
    cdef object live_capsule
    cdef LiveApi* api
    cdef int live_tile[MAX_SQUARES]   # what each square holds on it
    cdef int dirty[MAX_SQUARES]       # squares changed since (each listed once)
    cdef char is_dirty[MAX_SQUARES]
    cdef int n_dirty
    cdef public long nodes
    cdef public long node_limit  # stop (OutOfNodes) past this many positions; 0: no limit
    cdef public long horizon
    cdef public long generated   # move generations (cache misses)
    cdef public long threatened  # plays proved worse by the opponent's going out without a search
    cdef public long solo_cuts   # positions proved worse by what the side's plays alone could get (`solo_bound`)
    cdef public long waiting_cuts  # positions proved no worse by passing (`waiting_bound`)
    cdef public long rest_cuts   # plays proved worse by what they leave the side alone (`play_bound`)
    cdef public long deferrals   # plays put off as another search was in the position they lead to
    cdef int letter_mult[MAX_SQUARES]
    cdef int word_mult[MAX_SQUARES]
    cdef int along[2][MAX_SQUARES]   # each square's place along its row ([0]) and its column ([1])
    # the words a tile alone on an empty square makes one way (`word_at`), kept while the board stays as it is
    cdef unsigned int* word_seen      # [(square * 2 + down) * 2 + which]: the `word_round` it was worked out in
    cdef int* word_known              # ... and its word_score
    cdef unsigned int word_round
    cdef object graph_ref         # the move generator's word graph, kept alive
    cdef const uint32_t* graph
    cdef bint zoned              # the board is small enough for threat zones
    cdef bint timed
    cdef double deadline_at
    cdef object deadline
    cdef int start_zero
    cdef int stopped             # why the search under way stopped (RUNNING: it did not)
    cdef Moves no_plays          # the plays of a side whose one tile has none here: it can only pass (`node`)
    cdef char near[MAX_SQUARES]  # squares a few steps from a tile just played (`seeds`; cleared after)
    cdef uint64_t solo_above     # the position whose side's `solo_bound` a `waiting_bound` just found above ...
    cdef int solo_above_alpha    # ... this alpha (see `solo_known_above`)

    def __cinit__(self):
        self.cache_key = NULL
        self.cache_moves = NULL
        self.word_seen = NULL
        self.word_known = NULL
        self.busy = NULL
        self.defer_stack = NULL
        memset(&self.no_plays, 0, sizeof(Moves))
        self.solo_above = 0

    def __dealloc__(self):
        cdef int k
        if self.cache_moves != NULL:
            for k in range(1 << CACHE_BITS):
                if self.cache_moves[k] != NULL:
                    free_moves(self.cache_moves[k])
        PyMem_RawFree(self.cache_moves)
        PyMem_RawFree(self.cache_key)
        PyMem_RawFree(self.defer_stack)
        PyMem_RawFree(self.word_seen)
        PyMem_RawFree(self.word_known)

    def __init__(self, endgame, generator, deadline):
        cdef int k, letter
        cdef const uint32_t[::1] graph
        board = endgame.board.copy()
        self.board = board
        self.generator = generator
        self.rows, self.cols = board.rows, board.cols
        self.n_squares = len(board.squares)
        tiles = board.tiles
        self.letters = tiles.size
        if self.letters + 1 > MAX_SLOTS or self.n_squares > MAX_SQUARES:
            raise ValueError("outside the compiled endgame search's limits")
        for letter in range(self.letters):
            self.points[letter] = tiles.points[letter]
        self.points[self.letters] = 0
        self.keys = keys_for(self.n_squares, self.letters)
        self.zsquare = self.keys.square
        memcpy(self.zrack, self.keys.rack, sizeof(self.zrack))
        memcpy(self.zzero, self.keys.zero, sizeof(self.zzero))
        self.cache_key = <uint64_t*>PyMem_RawMalloc((1 << CACHE_BITS) * sizeof(uint64_t))
        self.cache_moves = <Moves**>PyMem_RawMalloc((1 << CACHE_BITS) * sizeof(Moves*))
        if not (self.cache_key and self.cache_moves):
            raise MemoryError()
        memset(self.cache_moves, 0, (1 << CACHE_BITS) * sizeof(Moves*))
        self.cache_count = 0
        self.cache_round = 0
        self.listed = {}
        self.word_seen = <unsigned int*>PyMem_RawCalloc(self.n_squares * 4, sizeof(unsigned int))
        self.word_known = <int*>PyMem_RawMalloc(self.n_squares * 4 * sizeof(int))
        if not (self.word_seen and self.word_known):
            raise MemoryError()
        self.word_round = 0
        graph = generator.dawg.data
        self.graph_ref = graph
        self.graph = &graph[0]
        self.table = Table()
        self.slots = self.table.slots
        self.table_mask = self.table.mask
        self.written = self.table.written
        self.stop_all = &self.table.stop
        squares = board.squares
        self.live = _movegen.LiveBoard(generator.setting(board), squares)
        self.live_capsule = self.live.api()
        self.api = <LiveApi*>PyCapsule_GetPointer(self.live_capsule, "lexitrain.LiveApi")
        for k in range(self.n_squares):
            self.letter_mult[k], self.word_mult[k] = board.multipliers(k // self.cols, k % self.cols)
            self.along[0][k], self.along[1][k] = k % self.cols, k // self.cols
            self.sq[k] = squares[k]
            self.live_tile[k] = squares[k]
            self.is_dirty[k] = 0
        self.n_dirty = 0
        self.nodes = 0
        self.node_limit = 0
        self.horizon = 0
        self.generated = 0
        self.threatened = 0
        self.solo_cuts = 0
        self.waiting_cuts = 0
        self.rest_cuts = 0
        self.deferrals = 0
        self.stopped = RUNNING
        self.zoned = self.n_squares <= ZONE_WORDS * 64
        self.reset(endgame, deadline)

    def partner(self, endgame):
        """A search of `endgame` for another thread that shares this one's table (both read and
        write all of it: each finds the other's values and moves) and stop flag, with its own
        board, plays and counts: the two split the plays of a position between them
        (`endgame.SplitSearch`), rather than race over all of them."""
        cdef Search partner = Search(endgame, self.generator, self.deadline)
        partner.table = self.table
        partner.slots = self.slots
        partner.table_mask = self.table_mask
        partner.written = self.written
        partner.stop_all = self.stop_all
        self.share_marks()
        partner.share_marks()
        return partner

    cdef int share_marks(self) except -1:
        """Mark the positions this search is in, and put off those another search is in (see negamax)."""
        self.busy = self.table.marks()
        if self.defer_stack == NULL:
            self.defer_stack = <int*>PyMem_RawMalloc(DEFER_CAP * sizeof(int))
            if self.defer_stack == NULL:
                raise MemoryError()
        return 0

    def halt_search(self, bint stop):
        """Tell this search alone to stop (True: it raises Superseded), or that it may run again."""
        store_flag(&self.halt, 1 if stop else 0)

    def after_index(self, int player, int index, int depth, int alpha, int beta, int zero):
        """`after` for the player's play of that index in `plays(player)` (the pass: the count of
        its plays), without the GIL: the plays of a board and rack come in the same order to every
        search of it, so threads name them by index."""
        cdef Moves* moves = self.moves_or_raise(player)
        cdef int value, i = PASS if index >= moves.n else index
        self.stopped = RUNNING
        with nogil:
            value = self.child(player, moves, i, depth, alpha, beta, zero)
        self.unpin(moves)
        self.raise_stopped()
        return value

    def settled(self, int player, int zero, int depth, int alpha, int beta):
        """The table's value of this position where it settles it searched to `depth` within
        (alpha, beta), as the search's own first look does; else None (`endgame.SplitSearch`
        searches the first plies of a line itself)."""
        cdef Entry e
        if self.probe(self.key_of(player, zero), &e) and e.depth >= depth and settles(&e, alpha, beta):
            if e.depth != EXACT_DEPTH:
                self.horizon += 1
            return e.value
        return None

    def remember(self, int player, int zero, int index, int value, int depth, int alpha, int beta):
        """Store a value of this position found searching to `depth` (EXACT_DEPTH: to every game's
        end) within (alpha, beta), its best play the one of that index (the pass: the count of
        plays), as the search's own nodes do."""
        cdef Moves* moves = self.moves_or_raise(player)
        cdef int move = PASS if index >= moves.n else index
        self.unpin(moves)
        self.store(self.key_of(player, zero), value, move, depth,
                   UPPER if value <= alpha else LOWER if value >= beta else EXACT)

    def stop_partners(self, bint stop):
        """Tell this search and its partners to stop (True), or that they may run again (False)."""
        store_flag(self.stop_all, 1 if stop else 0)

    def reset(self, endgame, deadline):
        """Start from another position on the same kind of board, keeping the
        table and the plays found (the pre-endgame's endgames, one after another)."""
        cdef int k, t, s, letter, p
        squares = endgame.board.squares
        if len(squares) != self.n_squares or endgame.board.tiles.size != self.letters:
            raise ValueError("another kind of board")
        self.board_key = 0
        for k in range(self.n_squares):
            t = squares[k]
            if self.sq[k] != t:
                self.sq[k] = t
                self.touch(k)
            if t != EMPTY:
                self.board_key ^= self.zsquare[k * 256 + t]
        for p in range(2):
            r = endgame.racks[p]
            for letter in range(self.letters):
                self.rack[p][letter] = r.counts[letter]
            self.rack[p][self.letters] = r.blanks
            self.value[p] = rack_value(endgame.board.tiles.points, r.counts)
            self.size[p] = r.size
            for s in range(2):
                self.rack_key[p][s] = 0
                for letter in range(self.letters + 1):
                    self.rack_key[p][s] ^= self.zrack[s][letter][self.rack[p][letter]]
        self.deadline = deadline
        self.timed = deadline is not None
        self.deadline_at = deadline if deadline is not None else 0.0
        self.start_zero = endgame.zero_turns

    # -- what the solver reads ----------------------------------------------------------
    @property
    def sizes(self):
        return [self.size[0], self.size[1]]

    @property
    def values(self):
        return [self.value[0], self.value[1]]

    # -- making and taking back plays ----------------------------------------------------
    cdef inline int slot_of(self, int t) noexcept nogil:
        """The rack slot tile t on the board came from (a blank's letter: the blank's slot)."""
        return self.letters if t >= BLANK_FLAG else t

    cdef inline int on_square(self, int slot) noexcept nogil:
        """The tile a rack slot lays on a square for the bounds' word checks (a blank: WILD, any letter)."""
        return WILD if slot == self.letters else slot

    cdef inline void take(self, int p, int slot, int delta) noexcept nogil:
        cdef int n = self.rack[p][slot]
        self.rack[p][slot] = n + delta
        self.rack_key[p][0] ^= self.zrack[0][slot][n] ^ self.zrack[0][slot][n + delta]
        self.rack_key[p][1] ^= self.zrack[1][slot][n] ^ self.zrack[1][slot][n + delta]

    cdef void place(self, int p, int k, int t, int delta) noexcept nogil:
        """Tile t from p's rack onto square k (delta -1), or back (delta +1)."""
        self.sq[k] = t if delta < 0 else EMPTY
        self.touch(k)
        self.board_key ^= self.zsquare[k * 256 + t]
        if t >= BLANK_FLAG:
            self.take(p, self.letters, delta)
        else:
            self.take(p, t, delta)
            self.value[p] += delta * self.points[t]
        self.size[p] += delta

    cdef void make_index(self, int p, Moves* moves, int i) noexcept nogil:
        cdef int j
        for j in range(moves.first[i], moves.first[i + 1]):
            self.place(p, moves.square[j], moves.tile[j], -1)

    cdef void unmake_index(self, int p, Moves* moves, int i) noexcept nogil:
        cdef int j
        for j in range(moves.first[i], moves.first[i + 1]):
            self.place(p, moves.square[j], moves.tile[j], 1)

    cdef inline void touch(self, int k) noexcept nogil:
        if not self.is_dirty[k]:
            self.is_dirty[k] = 1
            self.dirty[self.n_dirty] = k
            self.n_dirty += 1

    cdef void sync(self) noexcept nogil:
        """Bring the LiveBoard to this board: the squares changed since it last generated."""
        cdef int n, k, t
        for n in range(self.n_dirty):
            k = self.dirty[n]
            self.is_dirty[k] = 0
            t = self.sq[k]
            if t != self.live_tile[k]:
                self.live_tile[k] = t
                self.api.set(self.api.board, k, t)
        self.n_dirty = 0

    # -- the plays of a board and rack, kept --------------------------------------------------
    cdef void unpin(self, Moves* moves) noexcept nogil:
        """A search over these plays is done: free them if the cache dropped them meanwhile."""
        if moves != NULL and moves != &self.no_plays:
            moves.pins -= 1
            if moves.pins == 0 and moves.orphan:
                free_moves(moves)

    cdef void clear_cache(self) noexcept nogil:
        """Empty the cache (plays a search is going through are freed when it is done with them)."""
        cdef int k
        for k in range(1 << CACHE_BITS):
            if self.cache_moves[k] != NULL:
                if self.cache_moves[k].pins:
                    self.cache_moves[k].orphan = 1
                else:
                    free_moves(self.cache_moves[k])
                self.cache_moves[k] = NULL
        self.cache_count = 0
        self.cache_round += 1

    cdef Moves* moves_of(self, int p) noexcept nogil:
        """The player's plays on this board, pinned (the caller unpins them): from the cache, else
        the move generator. NULL where memory ran out (the search stops)."""
        cdef uint64_t key = self.board_key ^ self.rack_key[p][0]  # a 64-bit hash of board and rack
        cdef uint64_t mask = (1 << CACHE_BITS) - 1
        cdef uint64_t k = key & mask
        cdef int total, cap = 0
        cdef int* flat = NULL
        cdef Moves* moves
        while self.cache_moves[k] != NULL:
            if self.cache_key[k] == key:
                self.cache_moves[k].pins += 1
                return self.cache_moves[k]
            k = (k + 1) & mask
        self.sync()
        total = self.api.find(self.api.board, self.rack[p], self.letters, self.rack[p][self.letters], &flat, &cap)
        if total < 0:
            PyMem_RawFree(flat)
            self.stopped = STOP_MEMORY
            return NULL
        self.generated += 1
        moves = load_moves(flat, total, self.cols, self.size[p], self.points)
        if moves == NULL:
            self.stopped = STOP_MEMORY
            return NULL
        if self.cache_count >= PLAYS_LIMIT:
            self.clear_cache()
            k = key & mask
        self.cache_key[k] = key
        self.cache_moves[k] = moves
        self.cache_count += 1
        moves.pins = 1
        return moves

    cdef list listed_plays(self, Moves* moves):
        """The plays as ScoredPlays (made once per cache round)."""
        cdef object at = <size_t>moves
        if self.listed_round != self.cache_round:
            self.listed = {}
            self.listed_round = self.cache_round
        found = self.listed.get(at)
        if found is None:
            found = self.listed[at] = as_plays(moves)
        return found

    cdef Moves* moves_or_raise(self, int p) except NULL:
        cdef Moves* moves = self.moves_of(p)
        if moves == NULL:
            self.stopped = RUNNING
            raise MemoryError()
        return moves

    def plays(self, int player):
        cdef Moves* moves = self.moves_or_raise(player)
        try:
            return self.listed_plays(moves)
        finally:
            self.unpin(moves)

    def make(self, int player, play):
        cdef Moves* moves = self.moves_or_raise(player)
        try:
            self.make_index(player, moves, self.listed_plays(moves).index(play))
        finally:
            self.unpin(moves)

    def unmake(self, int player, play):
        cdef int j, k, t
        # the play's squares hold its tiles now: take them back directly
        dr, dc = (1, 0) if play.down else (0, 1)
        for j in range(len(play.letters)):
            if play.through >> j & 1:
                continue
            k = (play.row + dr * j) * self.cols + play.col + dc * j
            self.place(player, k, play.letters[j], 1)

    # -- the table ---------------------------------------------------------------------------
    cdef inline uint64_t key_of(self, int p, int zero) noexcept nogil:
        return self.board_key ^ self.rack_key[p][0] ^ self.rack_key[1 - p][1] ^ self.zzero[zero]

    cdef inline bint probe(self, uint64_t key, Entry* e) noexcept nogil:
        """Read this key's entry into `e`; False where the table has none."""
        return read_entry(self.slots, self.written, key & self.table_mask, key, e)

    cdef inline void store(self, uint64_t key, int value, int move, int depth, int flag) noexcept nogil:
        """Keep a result: a bucket holds two, the one searched deepest (an exact
        one deepest of all) and the latest, so long proofs survive the many
        shallow nodes searched after them. A page never written is written without
        a read (see Table)."""
        cdef uint64_t at = key & self.table_mask
        cdef Slot* bucket = &self.slots[at << 1]
        cdef uint64_t data = pack(value, move, depth, flag)
        cdef uint64_t first_data, first_check
        cdef Entry e
        cdef int j = 1
        if not load_byte(&self.written[at >> PAGE_BUCKETS]):
            store_word(&bucket[0].check, key ^ data)
            store_word(&bucket[0].data, data)
            store_byte(&self.written[at >> PAGE_BUCKETS], 1)
            return
        first_data = load_word(&bucket[0].data)
        first_check = load_word(&bucket[0].check)
        unpack(first_data, &e)
        if first_check ^ first_data == key or depth >= e.depth:
            if first_check ^ first_data != key:
                store_word(&bucket[1].check, first_check)
                store_word(&bucket[1].data, first_data)
            j = 0
        store_word(&bucket[j].check, key ^ data)
        store_word(&bucket[j].data, data)

    def table_move(self, int player, int zero):
        """(whether the table holds this position, its move: a play or None for a pass)."""
        cdef Entry e
        cdef Moves* moves
        if not self.probe(self.key_of(player, zero), &e) or e.move == NO_MOVE:
            return False, None
        if e.move == PASS:
            return True, None
        moves = self.moves_or_raise(player)
        try:
            return (True, self.listed_plays(moves)[e.move]) if e.move < moves.n else (False, None)
        finally:
            self.unpin(moves)

    # -- the search ------------------------------------------------------------------------
    cdef int child(self, int p, Moves* moves, int i, int depth, int alpha, int beta, int zero) noexcept nogil:
        """The value for p of play i (or PASS) searched within (alpha, beta)."""
        cdef int other = 1 - p, score, rest
        if i == PASS:
            if zero + 1 >= MAX_ZERO_TURNS:
                return self.value[other] - self.value[p]
            return -self.negamax(other, depth - 1, -beta, -alpha, zero + 1)
        score = moves.score[i]
        if moves.first[i + 1] - moves.first[i] == self.size[p]:  # going out ends the game
            return score + 2 * self.value[other]
        self.make_index(p, moves, i)
        rest = self.negamax(other, depth - 1, score - beta, score - alpha, 0 if score else zero + 1)
        self.unmake_index(p, moves, i)
        return score - rest

    cdef void zone_out(self, Moves* moves) noexcept nogil:
        """Work out the reach of the first THREATS plays of `moves` going out (on this
        board, the one they were found on): the squares they fill and, from each, the
        first empty square in each of the four directions past the tiles there. A
        play filling none of those squares leaves such a play legal and scoring the
        same: the words it forms and their squares are unchanged."""
        cdef int j, q, k, r, c, rr, cc, d
        cdef int dr[4]
        cdef int dc[4]
        dr[0], dr[1], dr[2], dr[3] = -1, 1, 0, 0
        dc[0], dc[1], dc[2], dc[3] = 0, 0, -1, 1
        moves.n_zone = min(moves.n_out, THREATS)
        for j in range(moves.n_zone):
            memset(moves.zone[j], 0, sizeof(moves.zone[j]))
            for q in range(moves.first[j], moves.first[j + 1]):
                k = moves.square[q]
                moves.zone[j][k >> 6] |= (<uint64_t>1) << (k & 63)
                r, c = k // self.cols, k % self.cols
                for d in range(4):
                    rr, cc = r + dr[d], c + dc[d]
                    while 0 <= rr < self.rows and 0 <= cc < self.cols and self.sq[rr * self.cols + cc] != EMPTY:
                        rr += dr[d]
                        cc += dc[d]
                    if 0 <= rr < self.rows and 0 <= cc < self.cols:
                        k = rr * self.cols + cc
                        moves.zone[j][k >> 6] |= (<uint64_t>1) << (k & 63)

    cdef Moves* threats(self, int other) noexcept nogil:
        """The opponent's plays here, pinned, their reach worked out, if some go out; else NULL."""
        cdef Moves* threat
        if not self.zoned or self.size[other] > THREAT_TILES:
            return NULL
        threat = self.moves_of(other)
        if threat == NULL:
            return NULL
        if threat.n_zone < 0:
            self.zone_out(threat)
        if threat.n_zone:
            return threat
        self.unpin(threat)
        return NULL

    cdef int solo_bound(self, int p, Moves* moves, int alpha) noexcept nogil:
        """A bound on p's value read off its plays here (`moves`) without a search: what p could get
        at most if the opponent passed to the end of the game. It is one, as the opponent may always
        pass and the value is the least of what its ways of playing leave p; with the opponent
        passing, the board changes only by p's own plays. Worked out where p has no play, one tile
        (`pass_bound`), two (`pair_bound`, then `pair_in_turn` where that is above alpha) or three
        (`triple_bound`, which stops at a value above alpha: the caller refutes the position only at
        alpha or below); INFINITY elsewhere."""
        cdef int value
        if moves.n == 0 or self.size[p] == 1:
            return self.pass_bound(p, moves)
        if self.size[p] == 2:
            value = self.pair_bound(p, moves)
            return value if value <= alpha else min(value, self.pair_in_turn(p, moves))
        if self.size[p] == 3:
            return self.triple_bound(p, moves, alpha)
        return INFINITY

    def bound(self):
        """`solo_bound` for the side to move at the root (None where it is not worked out)."""
        cdef Moves* moves = self.moves_or_raise(0)
        # two tiles: below any alpha, so the search's tightest reading (`pair_in_turn`); three: in full
        cdef int value = self.solo_bound(0, moves, -INFINITY if self.size[0] == 2 else INFINITY)
        self.unpin(moves)
        return None if value == INFINITY else value

    def left(self, play):
        """`left_bound` in full of the side to move's play `play` of one tile of its four."""
        cdef Moves* moves = self.moves_or_raise(0)
        cdef SoloPlays solo
        cdef int i, value
        try:
            i = self.listed_plays(moves).index(play)
            if self.size[0] != 4 or moves.first[i + 1] - moves.first[i] != 1:
                raise ValueError("not a play of one tile of four")
            self.read_solo(0, moves, &solo)
            value = self.left_bound(0, moves, i, &solo, INFINITY)
        finally:
            self.unpin(moves)
        return value

    def waiting(self):
        """`waiting_bound` for the side to move at the root (None where it is not worked out)."""
        cdef int value = self.waiting_bound(0, self.start_zero, -INFINITY)
        if self.stopped:
            self.raise_stopped()
        return None if value == -INFINITY else value

    cdef int pass_bound(self, int p, Moves* moves) noexcept nogil:
        """`solo_bound` where p has no play here or one tile: with no play now, p never has one
        (the game ends on scoreless turns, each side losing its rack); its last tile is worth
        most played now, going out with the best play, as p can: there the bound is the value."""
        if moves.n == 0:
            return self.value[1 - p] - self.value[p]
        return moves.score[0] + 2 * self.value[1 - p]

    cdef int run_word(self, int k, int t, bint down) noexcept nogil:
        """The score of the word tile t on empty square k makes alone along a row (or a
        column) with the tiles next to it on this board; 0 where it has none."""
        cdef int step = self.cols if down else 1, end = self.rows if down else self.cols
        cdef int total = 0, u, d, q, at
        cdef bint any = False
        for d in range(-1, 2, 2):
            q, at = k + d * step, self.along[down][k] + d
            while 0 <= at < end and self.sq[q] != EMPTY:
                u = self.sq[q]
                if u < BLANK_FLAG:
                    total += self.points[u]
                any = True
                q += d * step
                at += d
        if not any:
            return 0
        if t < BLANK_FLAG:
            total += self.points[t] * self.letter_mult[k]
        return total * self.word_mult[k]

    cdef int rack_slots(self, int p, int* slots) noexcept nogil:
        """p's tiles, one rack slot each (a tile held twice, twice), into `slots`; how many."""
        cdef int slot, j, n = 0
        for slot in range(self.letters + 1):
            for j in range(self.rack[p][slot]):
                slots[n] = slot
                n += 1
        return n

    cdef int pair_bound(self, int p, Moves* moves) noexcept nogil:
        """`solo_bound` where p holds two tiles: p goes out now with both; or plays one (a) and
        later the other (b), going out; or stops short (the scoreless turns end the game, each
        side losing its rack). Where b's words hold none of a's square, b is a play here scoring
        the same (at most the other tile's best play here); where they hold it, the two tiles
        together are a play going out here (c: b's word along their line and each tile's word
        across it are all words), and a's score plus b's is at most c's plus the word a made
        alone along that line (c's word there has a's premiums beside b's; a's word across is c's)."""
        cdef int other = 1 - p, i, j, q, t, slot, best_out = -INFINITY, v, w
        cdef int slots[2]
        cdef int best_one[2]
        self.rack_slots(p, slots)
        best_one[0] = -INFINITY
        best_one[1] = -INFINITY
        for i in range(moves.n_out, moves.n):  # the plays of one tile
            t = moves.tile[moves.first[i]]
            slot = self.slot_of(t)
            j = 0 if slot == slots[0] else 1
            best_one[j] = max(best_one[j], moves.score[i])
        for i in range(moves.n_out, moves.n):
            t = moves.tile[moves.first[i]]
            slot = self.slot_of(t)
            j = 0 if slot == slots[0] else 1
            # the other tile's best play alone (two of a kind: the same plays)
            v = best_one[1 - j] if slots[0] != slots[1] else best_one[0]
            if v > -INFINITY:
                best_out = max(best_out, moves.score[i] + v)
        for i in range(moves.n_out):  # the plays going out with both tiles
            w = 0
            for q in range(moves.first[i], moves.first[i + 1]):
                w = max(w, self.run_word(moves.square[q], moves.tile[q], moves.flat[moves.record[i] + 3]))
            best_out = max(best_out, moves.score[i] + w)
        v = self.value[other] - self.value[p]
        if moves.n > moves.n_out:
            v = max(v, moves.gain[moves.top_gain] + self.value[other] - self.value[p])
        if best_out > -INFINITY:
            v = max(v, best_out + 2 * self.value[other])
        return v

    cdef int pair_in_turn(self, int p, Moves* moves) noexcept nogil:
        """`solo_bound` of two tiles with each one-tile first play followed by the other tile's best
        play on the board after it (where `pair_bound` takes its best play here, which may be on the
        first tile's square, and adds to going out with both the word one makes alone): a play of
        the second tile there is on a square the first play touches (`touched`: scored there, its
        words checked, `zone_best`), or is a play here on none of those squares nor the first
        tile's, making the same words for the same score. So, the opponent passing, this is p's
        value (but for a blank, whose words any letter makes, and plays scoring nothing, which bring
        the game's end nearer). Dearer than `pair_bound`: read only where that does not refute."""
        cdef int other = 1 - p, vo = self.value[other], i, j, k, a, b, q, t, n_zone, one
        cdef int value = self.value[other] - self.value[p]
        cdef bint beside
        cdef int slots[2]
        cdef int zone[8]
        self.rack_slots(p, slots)
        if moves.n_out:
            value = max(value, moves.score[0] + 2 * vo)  # the best going out with both (first of all)
        for i in range(moves.n_out, moves.n):  # the plays of one tile, the other kept or played after
            q = moves.square[moves.first[i]]
            t = moves.tile[moves.first[i]]
            a = self.slot_of(t)
            b = slots[1] if a == slots[0] else slots[0]
            self.sq[q] = t
            self.new_words()
            n_zone = self.touched(moves, i, zone)
            one = self.zone_best(zone, n_zone, 0, b)
            self.sq[q] = EMPTY
            for j in range(moves.n_out, moves.n):  # b's plays here on none of those squares
                t = moves.tile[moves.first[j]]
                if self.slot_of(t) != b or moves.score[j] <= one:
                    continue
                beside = moves.square[moves.first[j]] == q
                for k in range(n_zone):
                    beside = beside or zone[k] == moves.square[moves.first[j]]
                if not beside:
                    one = moves.score[j]
            value = max(value, moves.score[i] + vo - self.points[b])  # b kept to the end
            if one >= 0:
                value = max(value, moves.score[i] + one + 2 * vo)
        return value

    cdef int word_score(self, int k, bint down, int new_a, int new_b) noexcept nogil:
        """The word through the tile on square k along its column (down) or row on this board, the
        squares new_a and new_b (-1: none) new to it (their premiums count): its score; -1 where the
        tile has none beside it that way, -2 where those letters are not a word of the move
        generator's word graph (one holding a WILD tile, a blank whose letter is not chosen, counts
        as a word)."""
        cdef const uint32_t* g = self.graph
        cdef uint32_t node = 0
        cdef int step = self.cols if down else 1
        cdef int at = self.along[down][k]  # the square's place along its line
        cdef int end = self.rows if down else self.cols
        cdef int q = k, t, letter, total = 0, wm = 1
        cdef bint checking = True, more
        while at > 0 and self.sq[q - step] != EMPTY:
            q -= step
            at -= 1
        more = at + 1 < end and self.sq[q + step] != EMPTY
        if not more:  # the run is the square alone
            return -1
        while True:  # one pass: each letter checked in the word graph and scored, the last one's end seen ahead
            t = self.sq[q]
            if t == WILD:
                checking = False
            elif checking:
                letter = t & (BLANK_FLAG - 1)
                if not more:
                    if not (g[node + 1] >> letter) & 1:
                        return -2
                elif not (g[node] >> letter) & 1:
                    return -2
                else:
                    node = g[node + GRAPH_FIELDS + letter]
            if q == new_a or q == new_b:
                total += (self.points[t] if t < BLANK_FLAG else 0) * self.letter_mult[q]
                wm *= self.word_mult[q]
            elif t < BLANK_FLAG:
                total += self.points[t]
            if not more:
                return total * wm
            q += step
            at += 1
            more = at + 1 < end and self.sq[q + step] != EMPTY

    cdef int first_empty(self, int k, int dr, int dc) noexcept nogil:
        """The first empty square from k one way along its row or column, past the tiles; -1 off the board."""
        cdef int d = dr + dc, step = dr * self.cols + dc
        cdef int at = self.along[1 if dr else 0][k] + d  # the place along the line
        cdef int end = self.rows if dr else self.cols
        k += step
        while 0 <= at < end and self.sq[k] != EMPTY:
            k += step
            at += d
        return k if 0 <= at < end else -1

    cdef inline void new_words(self) noexcept nogil:
        """The board changed: forget the words `word_at` kept."""
        self.word_round += 1
        if self.word_round == 0:  # wrapped around: every mark is stale
            memset(self.word_seen, 0, self.n_squares * 4 * sizeof(unsigned int))
            self.word_round = 1

    cdef int word_at(self, int q, int which, int slot, bint down) noexcept nogil:
        """`word_score` of the tile of that rack slot (a blank: WILD) alone on empty square q along its
        column (down) or row, kept by square, way and `which` (0 or 1: the caller's first or second
        tile) until `new_words`: the bounds of the board after a play score each of its tiles on each
        square beside the play several times over (alone, with the other tile either way, as a hook)."""
        cdef int at = (q * 2 + down) * 2 + which
        if self.word_seen[at] != self.word_round:
            self.sq[q] = self.on_square(slot)
            self.word_known[at] = self.word_score(q, down, q, -1)
            self.sq[q] = EMPTY
            self.word_seen[at] = self.word_round
        return self.word_known[at]

    cdef int single_score(self, int q, int which, int slot) noexcept nogil:
        """The score of the tile of that rack slot (`which`: see word_at) played alone on empty square q
        of this board; -1 where that is no play."""
        cdef int across, down = -2
        across = self.word_at(q, which, slot, False)
        if across != -2:
            down = self.word_at(q, which, slot, True)
        if across == -2 or down == -2 or across < 0 and down < 0:
            return -1
        return max(across, 0) + max(down, 0)

    cdef int pair_score(self, int q, int which, int slot, int q2, int slot2, bint down) noexcept nogil:
        """The score of the tiles of two rack slots (the first `which`, the second the other: see word_at)
        played together on empty squares q and q2 of one column (down) or row, nothing but tiles between
        them, plus the word the better of the two makes alone along that line (see pair_bound); -1 where
        that is no play. The words across it first (kept: `word_at`), the one along it only where both are."""
        cdef int main, cross, cross2, alone
        cross = self.word_at(q, which, slot, not down)
        if cross == -2:
            return -1
        cross2 = self.word_at(q2, 1 - which, slot2, not down)
        if cross2 == -2:
            return -1
        self.sq[q] = self.on_square(slot)
        self.sq[q2] = self.on_square(slot2)
        main = self.word_score(q, down, q, q2)
        self.sq[q] = EMPTY
        self.sq[q2] = EMPTY
        if main == -2:
            return -1
        alone = max(self.run_word(q, self.on_square(slot), down),
                    self.run_word(q2, self.on_square(slot2), down))
        return main + max(cross, 0) + max(cross2, 0) + alone

    cdef int touched(self, Moves* moves, int i, int* zone) noexcept nogil:
        """The empty squares of this board (play i's tiles on it) whose tile would make a word holding
        one of i's: from each of its squares, the first empty square past the tiles each of the four
        ways (a play none of whose tiles is on one of them makes the same words, for the same score,
        as on the board without i). Their count."""
        return self.touched_squares(&moves.square[moves.first[i]], moves.first[i + 1] - moves.first[i], zone)

    cdef int touched_squares(self, const int* squares, int n_squares, int* zone) noexcept nogil:
        """`touched` for the tiles on these squares (of any plays): from each, the first empty square past
        the tiles each of the four ways; a play makes a word holding one of those tiles only with a tile
        on one of them. Their count."""
        cdef int n = 0, q, j, d, k
        cdef int dr[4]
        cdef int dc[4]
        dr[0], dr[1], dr[2], dr[3] = -1, 1, 0, 0
        dc[0], dc[1], dc[2], dc[3] = 0, 0, -1, 1
        for q in range(n_squares):
            for d in range(4):
                k = self.first_empty(squares[q], dr[d], dc[d])
                if k < 0:
                    continue
                for j in range(n):
                    if zone[j] == k:
                        break
                else:
                    zone[n] = k
                    n += 1
        return n

    cdef int zone_best(self, const int* zone, int n_zone, int which, int slot) noexcept nogil:
        """The best score of the tile of that rack slot (`which`: see word_at) played alone on one of
        these empty squares (-1 where it has none)."""
        cdef int q, best = -1
        for q in range(n_zone):
            best = max(best, self.single_score(zone[q], which, slot))
        return best

    cdef int singles_value(self, int b, int c, int one_b, int one_c, int vo) noexcept nogil:
        """`pair_bound` of tiles b and c without their plays together: stopping now, after one of them
        (its best play alone one_b, one_c; -1: none) or after both one after the other."""
        cdef int rest_value = self.points[b] + self.points[c], value = vo - rest_value
        if one_b >= 0:
            value = max(value, one_b + self.points[b] + vo - rest_value)
        if one_c >= 0:
            value = max(value, one_c + self.points[c] + vo - rest_value)
        if one_b >= 0 and one_c >= 0:
            value = max(value, one_b + one_c + 2 * vo)
        return value

    cdef void read_solo(self, int p, Moves* moves, SoloPlays* solo) noexcept nogil:
        """What the bounds of a side playing out alone read off its plays here (p holding two to seven
        tiles): its tiles, each tile's best play alone, each pair's best play together plus the word
        one makes alone along their line (`pair_bound`), and the best play going out (`solo.out`)."""
        cdef int i, j, k, q, b, c, slot, used, down, value
        solo.n_pairs = 0
        solo.n_left = 0
        solo.out = -INFINITY
        solo.n_rack = self.rack_slots(p, solo.rack)
        for j in range(solo.n_rack):
            solo.best_one[j] = -1
            for k in range(j + 1, solo.n_rack):
                b, c = min(solo.rack[j], solo.rack[k]), max(solo.rack[j], solo.rack[k])
                for q in range(solo.n_pairs):
                    if solo.pair_of[q][0] == b and solo.pair_of[q][1] == c:
                        break
                else:
                    solo.pair_of[solo.n_pairs][0], solo.pair_of[solo.n_pairs][1] = b, c
                    solo.best_pair[solo.n_pairs] = -INFINITY
                    solo.n_pairs += 1
        for i in range(moves.n):
            j = moves.first[i]
            used = moves.first[i + 1] - j
            if used == solo.n_rack:
                solo.out = max(solo.out, moves.score[i])
            elif used == 1:
                slot = self.slot_of(moves.tile[j])
                for k in range(solo.n_rack):
                    if solo.rack[k] == slot:
                        solo.best_one[k] = max(solo.best_one[k], moves.score[i])
            elif used == 2:
                b = self.slot_of(moves.tile[j])
                c = self.slot_of(moves.tile[j + 1])
                b, c = min(b, c), max(b, c)
                down = moves.flat[moves.record[i] + 3]
                value = moves.score[i] + max(self.run_word(moves.square[j], moves.tile[j], down),
                                             self.run_word(moves.square[j + 1], moves.tile[j + 1], down))
                for q in range(solo.n_pairs):
                    if solo.pair_of[q][0] == b and solo.pair_of[q][1] == c:
                        solo.best_pair[q] = max(solo.best_pair[q], value)

    cdef int rest_bound(self, int p, Moves* moves, int i, SoloPlays* solo, bint touching) noexcept nogil:
        """The one- or two-tile bound (`pass_bound`, `pair_bound`) of what p's play i leaves it, on the
        board after i, with the opponent passing: read off the plays of this board (`read_solo`) without
        finding the plays of that one. A play there none of whose tiles is on a square that touches
        i's tiles (`touched`) is a play here, making the same words for the same score (of one tile, at
        most that tile's best play here; of two, the best of those tiles here); where `touching`, those
        that are on one are scored square by square, their words checked in the word graph (without,
        the value may be below the bound: a first look, see triple_bound)."""
        cdef int vo = self.value[1 - p], j, k, q, n_zone = 0, t, down, side, slot, b, c, value, best_out, v
        cdef int one_b, one_c
        cdef bint reach
        cdef int rest[SOLO_TILES]
        cdef int zone[4 * SOLO_TILES]
        for j in range(solo.n_rack):
            rest[j] = solo.rack[j]
        for q in range(moves.first[i], moves.first[i + 1]):
            slot = self.slot_of(moves.tile[q])
            for j in range(solo.n_rack):
                if rest[j] == slot:
                    rest[j] = -1
                    break
        if touching:
            for q in range(moves.first[i], moves.first[i + 1]):
                self.sq[moves.square[q]] = moves.tile[q]
            self.new_words()
            n_zone = self.touched(moves, i, zone)
        b = c = one_b = one_c = -1
        for j in range(solo.n_rack):
            if rest[j] >= 0:
                if b < 0:
                    b, one_b = rest[j], solo.best_one[j]
                else:
                    c, one_c = rest[j], solo.best_one[j]
        one_b = max(one_b, self.zone_best(zone, n_zone, 0, b))
        if c < 0:  # one tile left: it goes out with its best play, or stays (pass_bound)
            value = vo - self.points[b]
            if one_b >= 0:
                value = max(value, one_b + 2 * vo)
        else:  # two left (pair_bound)
            value = self.singles_value(b, c, one_b, max(one_c, self.zone_best(zone, n_zone, 1, c)), vo)
            best_out = -INFINITY
            for q in range(solo.n_pairs):
                if solo.pair_of[q][0] == min(b, c) and solo.pair_of[q][1] == max(b, c):
                    best_out = max(best_out, solo.best_pair[q])
            for q in range(n_zone):
                # the line from the tile played to this square: across it, the tile here makes
                # the word along that line alone, so a tile that cannot make it is not tried
                reach = self.along[0][zone[q]] == self.along[0][moves.square[moves.first[i]]]
                for down in range(2):
                    for side in range(-1, 2, 2):
                        k = self.first_empty(zone[q], side if down else 0, 0 if down else side)
                        if k < 0:
                            continue
                        for t in range(1 if b == c else 2):
                            if down != reach and self.word_at(zone[q], t, c if t else b, reach) == -2:
                                continue
                            v = self.pair_score(zone[q], t, c if t else b, k, b if t else c, down)
                            if v >= 0:  # (-1: no play there)
                                best_out = max(best_out, v)
            if best_out > -INFINITY:
                value = max(value, best_out + 2 * vo)
        if touching:
            for q in range(moves.first[i], moves.first[i + 1]):
                self.sq[moves.square[q]] = EMPTY
        return value

    cdef int triple_bound(self, int p, Moves* moves, int alpha) noexcept nogil:
        """`solo_bound` where p holds three tiles, worked out as far as alpha at most (a value above it
        is returned as soon as one is found). p's first play goes out, or leaves one tile c, or two
        (b and c) with at most the one- or two-tile bound of the board after it (`rest_bound`)."""
        cdef int vo = self.value[1 - p], bound = self.value[1 - p] - self.value[p], i, touching
        cdef SoloPlays solo
        self.read_solo(p, moves, &solo)
        if solo.out > -INFINITY:
            bound = max(bound, solo.out + 2 * vo)
        if bound > alpha:
            return bound
        for touching in range(2):  # first each play's bound by the plays of this board alone: often above alpha
            for i in range(moves.n_out, moves.n):
                bound = max(bound, moves.score[i] + self.rest_bound(p, moves, i, &solo, touching))
                if bound > alpha:
                    return bound
        return bound

    cdef int three_main(self, const int* squares, const int* tiles, bint down) noexcept nogil:
        """The word three tiles played together on these empty squares of one column (down) or row make
        along it (nothing but tiles between them): its score, -1 where it is no word. `word_score` counts
        the premiums of two new squares: the third's are added after (exact: its letter premium on its
        tile, its word premium on the whole word)."""
        cdef int j, total, t = tiles[2], k = squares[2]
        for j in range(3):
            self.sq[squares[j]] = tiles[j]
        total = self.word_score(squares[0], down, squares[0], squares[1])
        for j in range(3):
            self.sq[squares[j]] = EMPTY
        if total < 0:
            return -1
        return total * self.word_mult[k] + (self.points[t] if t < BLANK_FLAG else 0) * (
            self.letter_mult[k] - 1) * self.word_mult[squares[0]] * self.word_mult[squares[1]] * self.word_mult[k]

    cdef void linked_walk(self, int* placed, int n_placed, const int* tiles, int done, int score, int first,
                          int* best) noexcept nogil:
        """Every way of playing more of the three `tiles` (rack slots; `done`, a mask of them, played
        already for `score`) in plays each of which makes a word holding a tile on the `placed` squares or
        one played before it, the first one on placed[first:]: each such play has a tile on a square
        `touched_squares` finds from those, so every tile, pair and (none played yet) all three of them
        with one on such a square is scored and checked there, then the rest the same way on the board
        after it. best[mask] is raised to the most those of `mask` so score. (`placed` has room for the
        squares of the tiles not played.)"""
        cdef int zone[16]
        cdef int squares[3]
        cdef int laid[3]
        cdef int ends[5]
        cdef int across[5][3]
        cdef int n_zone, u, v, j, m, z, k, s, down, side, start, perm
        best[done] = max(best[done], score)
        if done == 7:
            return
        n_zone = self.touched_squares(&placed[first], n_placed - first, zone)
        for u in range(3):  # a tile alone first
            if done >> u & 1 or repeated_left(tiles, done, u):
                continue
            self.new_words()  # `word_at` keeps one tile's words (`which` 0) on this board
            for j in range(n_zone):
                s = self.single_score(zone[j], 0, tiles[u])
                if s < 0:
                    continue
                self.sq[zone[j]] = self.on_square(tiles[u])
                placed[n_placed] = zone[j]
                self.linked_walk(placed, n_placed + 1, tiles, done | 1 << u, score + s, 0, best)
                self.sq[zone[j]] = EMPTY
                self.new_words()
        for u in range(3):  # two tiles together first: one on such a square, the other the next empty one along a line
            for v in range(3):
                if v == u or (done >> u | done >> v) & 1 or repeated_left(tiles, done, u) \
                        or repeated_left(tiles, done | 1 << u, v):
                    continue
                self.new_words()  # `word_at` keeps two tiles' words (`which` 0 and 1) on this board
                for j in range(n_zone):
                    z = zone[j]
                    for down in range(2):
                        for side in range(-1, 2, 2):
                            k = self.first_empty(z, side if down else 0, 0 if down else side)
                            if k < 0:
                                continue
                            s = self.pair_score(z, 0, tiles[u], k, tiles[v], down)
                            if s < 0:
                                continue
                            self.sq[z] = self.on_square(tiles[u])
                            self.sq[k] = self.on_square(tiles[v])
                            placed[n_placed] = z
                            placed[n_placed + 1] = k
                            self.linked_walk(placed, n_placed + 2, tiles, done | 1 << u | 1 << v, score + s, 0, best)
                            self.sq[z] = EMPTY
                            self.sq[k] = EMPTY
                            self.new_words()
        if done:
            return
        for j in range(n_zone):  # all three together, one on such a square: three empty squares in a row along a line
            for down in range(2):
                ends[2] = zone[j]
                for m in range(2):
                    side = 1 if m else -1
                    k = self.first_empty(ends[2], side if down else 0, 0 if down else side)
                    ends[3 if m else 1] = k
                    ends[4 if m else 0] = -1 if k < 0 else self.first_empty(k, side if down else 0, 0 if down else side)
                for m in range(5):  # each tile's word across each square (-2: none that is a word)
                    for u in range(3):
                        across[m][u] = -2
                        if ends[m] >= 0:
                            self.sq[ends[m]] = self.on_square(tiles[u])
                            across[m][u] = self.word_score(ends[m], not down, ends[m], -1)
                            self.sq[ends[m]] = EMPTY
                for start in range(3):
                    if ends[start] < 0 or ends[start + 1] < 0 or ends[start + 2] < 0:
                        continue
                    for perm in range(6):
                        s = 0
                        for m in range(3):
                            u = PERMUTATIONS[perm][m]
                            if across[start + m][u] == -2:
                                s = -1
                                break
                            s += max(across[start + m][u], 0)
                            squares[m] = ends[start + m]
                            laid[m] = self.on_square(tiles[u])
                        if s >= 0:
                            m = self.three_main(squares, laid, down)
                            if m >= 0:
                                best[7] = max(best[7], score + s + m)

    cdef int split_alone(self, SoloPlays* solo, const int* index, int n) noexcept nogil:
        """The most the tiles of these places in `solo.rack` (none, one or two) score, every one played, in
        plays of this board's (`read_solo`): one tile's best; two tiles' best alone each, or together (two
        one after the other where the second's words hold the first: see `pair_bound`). -INFINITY where
        they have none."""
        cdef int b, c, q, value = -INFINITY
        if n == 0:
            return 0
        if n == 1:
            return solo.best_one[index[0]] if solo.best_one[index[0]] >= 0 else -INFINITY
        if solo.best_one[index[0]] >= 0 and solo.best_one[index[1]] >= 0:
            value = solo.best_one[index[0]] + solo.best_one[index[1]]
        b, c = min(solo.rack[index[0]], solo.rack[index[1]]), max(solo.rack[index[0]], solo.rack[index[1]])
        for q in range(solo.n_pairs):
            if solo.pair_of[q][0] == b and solo.pair_of[q][1] == c:
                value = max(value, solo.best_pair[q])
        return value

    cdef bint made_of(self, Moves* moves, int i, const int* left) noexcept nogil:
        """Whether play i is made of some of the three tiles `left` (rack slots), each used once."""
        cdef int k, m, t
        cdef bint used[3]
        used[0] = used[1] = used[2] = False
        for k in range(moves.first[i], moves.first[i + 1]):
            t = self.slot_of(moves.tile[k])
            for m in range(3):
                if not used[m] and left[m] == t:
                    used[m] = True
                    break
            else:
                return False
        return True

    cdef int rest_triple(self, int p, Moves* moves, int slot, int alpha, SoloPlays* solo) noexcept nogil:
        """`triple_bound` on this board of the three tiles p keeps playing its tile of that rack slot (as
        far as alpha), from their plays here: those of p's `moves` made of them alone (going out first), not
        generated; kept in `solo` for p's other plays of that tile."""
        cdef int j = 0, value, pts = self.points[slot], i, k, n = 0, total = 0, placed, pass_out
        cdef int left[3]
        cdef Moves mine
        while j < solo.n_left and solo.left_slot[j] != slot:
            j += 1
        if j < solo.n_left and (solo.left_value[j] <= solo.left_alpha[j] or solo.left_value[j] > alpha):
            return solo.left_value[j]  # the bound in full, or above this alpha too
        if j == solo.n_left:
            solo.n_left += 1
        solo.left_slot[j] = slot
        k = 0
        placed = 0
        for i in range(solo.n_rack):
            if solo.rack[i] == slot and not placed:
                placed = 1
            else:
                left[k] = solo.rack[i]
                k += 1
        mine.score = <int*>PyMem_RawMalloc((4 * moves.n + 1 + 2 * (moves.first[moves.n] - moves.first[0])) * sizeof(int))
        if mine.score == NULL:
            return INFINITY
        mine.first = mine.score + moves.n
        mine.record = mine.first + moves.n + 1
        mine.square = mine.record + moves.n
        mine.tile = mine.square + (moves.first[moves.n] - moves.first[0])
        mine.flat = moves.flat
        n = 0
        mine.n_out = 0
        for pass_out in range(2):  # the plays going out with all three first
            for i in range(moves.n):
                if self.made_of(moves, i, left) and (moves.first[i + 1] - moves.first[i] == 3) == (pass_out == 0):
                    mine.score[n] = moves.score[i]
                    mine.record[n] = moves.record[i]
                    mine.first[n] = total
                    for k in range(moves.first[i], moves.first[i + 1]):
                        mine.square[total] = moves.square[k]
                        mine.tile[total] = moves.tile[k]
                        total += 1
                    n += 1
            if pass_out == 0:
                mine.n_out = n
        mine.n = n
        mine.first[n] = total
        self.take(p, slot, -1)
        self.value[p] -= pts
        self.size[p] -= 1
        value = self.triple_bound(p, &mine, alpha)
        self.take(p, slot, 1)
        self.value[p] += pts
        self.size[p] += 1
        PyMem_RawFree(mine.score)
        solo.left_value[j] = value
        solo.left_alpha[j] = alpha
        return value

    cdef int seeds(self, Moves* moves, int q, const int* left, int* found) noexcept nogil:
        """The plays of this board (of one or two of the tiles `left`, rack slots) that may be seeds of a
        play linked to q's tile (see `left_bound`): none of their tiles beside q's (`touched_squares`:
        such a play is linked itself), one within three such steps of it (a tile linked to q's through at
        most two others lies there: each step from a tile to the first empty square past the tiles, a
        step over a tile played two steps). Their indices into `found` (SEEDS at most); how many, -1
        where there are more."""
        cdef int ring[85]
        cdef int fresh[64]
        cdef int start = 0, end = 1, near, step, j, k, n = 0, m
        ring[0] = q
        self.near[q] = 1
        for step in range(3):
            m = self.touched_squares(&ring[start], end - start, fresh)
            start = end
            for j in range(m):
                if not self.near[fresh[j]]:
                    self.near[fresh[j]] = 2 if step else 1  # 1: beside q's tile
                    ring[end] = fresh[j]
                    end += 1
        for j in range(moves.n_out, moves.n):
            if moves.first[j + 1] - moves.first[j] > 2:
                continue
            if not self.made_of(moves, j, left):
                continue
            near = 0
            for k in range(moves.first[j], moves.first[j + 1]):
                if self.near[moves.square[k]] == 1:
                    near = -1  # beside q's tile: a linked play
                    break
                if self.near[moves.square[k]] == 2:
                    near = 1
            if near == 1:
                if n == SEEDS:
                    n = -1
                    break
                found[n] = j
                n += 1
        for j in range(end):
            self.near[ring[j]] = 0
        return n

    cdef void seeded_walk(self, Moves* moves, const int* found, int n_found, int q, const int* tiles,
                          int* best) noexcept nogil:
        """`linked_walk` of the three `tiles` (rack slots) from q's tile where one or two of them are first
        played as seeds (`seeds`: plays of this board making no word with a tile played before, linked
        only by a later play), one play or two of one tile each: their scores, then the rest linked to q's
        tile or theirs, the first play to theirs."""
        cdef int a, b, j, k, m, n_placed, score, done, slot
        cdef int pick[2]
        cdef int placed[4]
        cdef int laid[4]
        for a in range(n_found):
            for b in range(a - 1, n_found):  # b == a - 1: the seed a alone; b > a: with the seed b too
                if b == a or b > a and (moves.first[found[a] + 1] - moves.first[found[a]] != 1
                                        or moves.first[found[b] + 1] - moves.first[found[b]] != 1):
                    continue
                pick[0] = found[a]
                pick[1] = found[b] if b > a else -1
                placed[0] = q
                n_placed = 1
                score = 0
                done = 0
                for m in range(2):
                    if pick[m] < 0:
                        continue
                    score += moves.score[pick[m]]
                    for k in range(moves.first[pick[m]], moves.first[pick[m] + 1]):
                        slot = self.slot_of(moves.tile[k])
                        for j in range(3):
                            if not done >> j & 1 and tiles[j] == slot:
                                done |= 1 << j
                                break
                        else:
                            score = -INFINITY  # two seeds of one tile held once
                        placed[n_placed] = moves.square[k]
                        laid[n_placed] = moves.tile[k]
                        n_placed += 1
                if score == -INFINITY or n_placed == 3 and placed[1] == placed[2]:
                    continue
                for m in range(1, n_placed):
                    self.sq[placed[m]] = laid[m]
                self.linked_walk(placed, n_placed, tiles, done, score, 1, best)  # a play linking the seeds first
                for m in range(1, n_placed):
                    self.sq[placed[m]] = EMPTY

    cdef int left_bound(self, int p, Moves* moves, int i, SoloPlays* solo, int alpha) noexcept nogil:
        """The solo bound of the three tiles p's play i of one tile (of four) leaves it, on the board after
        i, without that board's plays; worked out as far as alpha (a value above it is returned as soon as
        one is found). Call a play of those tiles there linked where it makes a word holding i's tile or a
        tile of a linked play before it. An unlinked play's words hold no linked tile, and a linked play's
        none of an unlinked one's (else the later of the two would hold the earlier's), so the unlinked
        plays may be played first, in their order, and make the same words as on this board without i;
        the linked ones then make the same words as with nothing else played. So p's tiles split into the
        linked (`linked_walk`, from i's square), the unlinked (none linked: their `triple_bound` here,
        `rest_triple`; else one or two tiles, `split_alone`) and those kept, which count against p at the
        end (all played: twice the opponent's rack for p)."""
        cdef int vo = self.value[1 - p], j, n = 0, c_mask, s_mask, k_mask, value, linked, alone, kept
        cdef int t = moves.tile[moves.first[i]], q = moves.square[moves.first[i]]
        cdef int played = self.slot_of(t)
        cdef bint skipped = False
        cdef int index[3]      # the tiles left: their places in solo.rack
        cdef int chosen[3]
        cdef int placed[4]
        cdef int seed_rack[3]
        cdef int linked_of[8]   # per set of the tiles left: the most they score linked to i's tile
        cdef int found[SEEDS]
        cdef int bound, n_found
        for j in range(solo.n_rack):
            if solo.rack[j] == played and not skipped:
                skipped = True
            else:
                index[n] = j
                n += 1
        bound = vo - self.points[solo.rack[index[0]]] - self.points[solo.rack[index[1]]] - self.points[solo.rack[index[2]]]
        for j in range(3):
            chosen[j] = solo.rack[index[j]]
        self.sq[q] = t
        n_found = self.seeds(moves, q, chosen, found)
        if n_found < 0:
            self.sq[q] = EMPTY
            return INFINITY  # too many to read
        placed[0] = q
        for j in range(3):
            seed_rack[j] = solo.rack[index[j]]
            linked_of[j] = linked_of[j + 4] = -INFINITY
        linked_of[3] = linked_of[7] = -INFINITY
        self.linked_walk(placed, 1, seed_rack, 0, 0, 0, linked_of)
        self.seeded_walk(moves, found, n_found, q, seed_rack, linked_of)  # all three linked, some by a later play
        self.new_words()
        for c_mask in range(1, 8):  # the tiles linked to i's
            linked = linked_of[c_mask]
            if linked == -INFINITY:
                continue
            s_mask = 7 & ~c_mask
            while True:  # each set of the others played unlinked (the rest kept)
                n = 0
                kept = 0
                for j in range(3):
                    if s_mask >> j & 1:
                        chosen[n] = index[j]
                        n += 1
                    elif not c_mask >> j & 1:
                        kept += self.points[solo.rack[index[j]]]
                alone = self.split_alone(solo, chosen, n)
                if alone > -INFINITY:
                    k_mask = 7 & ~c_mask & ~s_mask
                    value = linked + alone + (2 * vo if k_mask == 0 else vo - kept)
                    bound = max(bound, value)
                if s_mask == 0:
                    break
                s_mask = (s_mask - 1) & ~c_mask & 7
            if bound > alpha:
                break
        self.sq[q] = EMPTY
        self.new_words()
        if bound > alpha:
            return bound
        return max(bound, self.rest_triple(p, moves, played, alpha, solo))

    cdef int single_best(self, int p) noexcept nogil:
        """The best score of p's one tile played on this board, -1 where it has no play: read off
        the LiveBoard's cross-checks (`best_single`), without finding the plays themselves."""
        cdef int slot = 0
        while self.rack[p][slot] == 0:
            slot += 1
        self.sync()
        return self.api.best_single(self.api.board, -1 if slot == self.letters else slot)

    cdef int waiting_bound(self, int p, int zero, int beta) noexcept nogil:
        """A bound from below on p's value without finding p's plays: p may pass, and where that
        ends the game its value is the racks' difference; else the opponent, to move, gets at
        most its `solo_bound` (p may pass again), worked out where it holds one to three tiles
        (as far as beta: a value below it says only that). -INFINITY where it does not apply or
        could not reach beta: p keeping every tile, the opponent's least is the racks'
        difference, so the bound is at most the other way round."""
        cdef int other = 1 - p, bound
        cdef Moves* theirs
        if zero + 1 >= MAX_ZERO_TURNS:
            return self.value[other] - self.value[p]
        if self.size[other] > 3 or self.value[other] - self.value[p] < beta:
            return -INFINITY
        if self.size[other] == 1:
            bound = self.single_best(other)
            return -(bound + 2 * self.value[p]) if bound >= 0 else self.value[other] - self.value[p]
        theirs = self.moves_of(other)
        if theirs == NULL:
            return -INFINITY
        bound = -self.solo_bound(other, theirs, -beta)
        self.unpin(theirs)
        if bound < beta:  # the opponent's bound is above its alpha after p's pass: its node need not read it again
            self.solo_above = self.key_of(other, zero + 1)
            self.solo_above_alpha = -beta
        return bound

    cdef inline bint solo_known_above(self, uint64_t key, int alpha) noexcept nogil:
        """Is this position's `solo_bound` known to be above alpha without working it out? So where the
        opponent's `waiting_bound` just found it above this alpha or a higher one, and the opponent then
        passed to it (a side that can only pass does so at once): the bound is read off this board and
        these racks alone, so reading it again refutes nothing. Against a stuck Q (some_isc_game), where
        the three-tile bound stands above the value, most three-tile positions read it twice before."""
        return key == self.solo_above and alpha <= self.solo_above_alpha

    cdef int play_bound(self, int p, Moves* moves, int i, int zero, int alpha, SoloPlays* solo,
                        bint* read) noexcept nogil:
        """A bound on the value for p of play i (of p's two to seven tiles, leaving one or two) without
        searching its reply, where it refutes the play (at most alpha; INFINITY elsewhere): its score
        and the `rest_bound` of the board after it (the opponent may pass, and then p gets no more),
        kept in the table for the reply's position (a bound from below, as its `waiting_bound`). Where
        p plays out against a stuck tile, that reply costs a generation of p's plays there (for the
        opponent's waiting bound), the bound none. Not where the table holds the reply's position
        already (read there at once). `read` says whether `solo` holds this position's plays' reading
        yet (`read_solo`, once a position)."""
        cdef int used, rest
        cdef uint64_t key
        cdef Entry e
        if i == PASS or self.size[p] > SOLO_TILES or self.size[p] < 2:
            return INFINITY
        used = moves.first[i + 1] - moves.first[i]
        if used == self.size[p] or self.size[p] - used > 2 and not (self.size[p] == 4 and used == 1):
            return INFINITY
        self.make_index(p, moves, i)
        key = self.key_of(1 - p, 0 if moves.score[i] else zero + 1)
        self.unmake_index(p, moves, i)
        if self.probe(key, &e):
            return INFINITY
        if not read[0]:
            self.read_solo(p, moves, solo)
            read[0] = True
        if self.size[p] - used == 3:
            rest = self.left_bound(p, moves, i, solo, alpha - moves.score[i])
            if moves.score[i] + rest > alpha:
                return INFINITY  # not a bound: worked out only until it was above alpha
        elif moves.score[i] + self.rest_bound(p, moves, i, solo, False) > alpha:
            return INFINITY  # even the plays of this board alone get more
        else:
            rest = self.rest_bound(p, moves, i, solo, True)
        self.store(key, -rest, PASS, EXACT_DEPTH, LOWER)
        return moves.score[i] + rest if moves.score[i] + rest <= alpha else INFINITY

    cdef int threat_bound(self, int p, Moves* moves, int i, Moves* threat, int zero) noexcept nogil:
        """A bound on the value for p of play i (or PASS) without searching it: the
        opponent, to move next, may still go out with the best of its threats that the
        play leaves alone, which ends the game: p gets at most the play's score less that
        score and twice p's rack after the play. INFINITY where no threat is left."""
        cdef int j, q, k
        cdef bint hit
        if i == PASS:
            if zero + 1 >= MAX_ZERO_TURNS:
                return INFINITY  # the pass ends the game: its value is known at once anyway
            return -threat.score[0] - 2 * self.value[p]
        for j in range(threat.n_zone):
            hit = False
            for q in range(moves.first[i], moves.first[i + 1]):
                k = moves.square[q]
                if threat.zone[j][k >> 6] >> (k & 63) & 1:
                    hit = True
                    break
            if not hit:
                return moves.score[i] - threat.score[j] - 2 * (self.value[p] - (moves.gain[i] - moves.score[i]))
        return INFINITY

    cdef bint should_stop(self) noexcept nogil:
        """Count a position; is it time to stop (out of time or positions, or told to)?"""
        self.nodes += 1
        if self.stopped:
            return True
        if load_flag(self.stop_all) or load_flag(&self.halt):
            self.stopped = STOP_SHARED
        elif self.node_limit and self.nodes > self.node_limit:
            self.stopped = STOP_NODES
        elif self.timed and not self.nodes & 1023 and now() > self.deadline_at:
            self.stopped = STOP_TIME
        return self.stopped != RUNNING

    cdef int negamax(self, int p, int depth, int alpha, int beta, int zero) noexcept nogil:
        """The value for p (to move) of the rest of the game, within (alpha, beta); 0 and `stopped`
        set where the search stopped (nothing is stored then). Where other searches share the
        table, a position searched deeper than one ply is marked as this search's while it is in
        it, and where `exclusive` asks, one another search is in is put off: 0 returned and
        `deferred` set (ABDADA: the play leading to it is searched after the parent's others, by
        when the other search's value is in the table; two searches of one play so split it)."""
        cdef bint exclusive = self.exclusive
        cdef uint64_t key, held
        cdef uint64_t* mark
        cdef int value
        if self.busy == NULL or depth <= 1:
            self.exclusive = False
            return self.node(p, depth, alpha, beta, zero)
        self.exclusive = False
        key = self.key_of(p, zero)
        mark = &self.busy[key & ((1 << BUSY_BITS) - 1)]
        held = load_word(mark)
        if held == key and exclusive:
            self.deferred = True
            return 0
        if held != 0:  # another search is in it (or in another position of that mark)
            return self.node(p, depth, alpha, beta, zero)
        store_word(mark, key)
        value = self.node(p, depth, alpha, beta, zero)
        if load_word(mark) == key:
            store_word(mark, 0)
        return value

    cdef int node(self, int p, int depth, int alpha, int beta, int zero) noexcept nogil:
        """`negamax` once the position is this search's to search."""
        cdef int other = 1 - p, n, i, value, best, best_move, alpha0 = alpha, first = NO_MOVE, bound
        cdef int n_first, n_listed, put_off = self.defer_top
        cdef bint again, read = False, stuck = False
        cdef SoloPlays solo
        cdef long horizon_before
        cdef uint64_t key = self.key_of(p, zero)
        cdef Entry e
        cdef Moves* moves
        cdef Moves* threat
        if self.should_stop():
            return 0
        if self.probe(key, &e):
            first = e.move
            if e.depth >= depth and settles(&e, alpha, beta):
                if e.depth != EXACT_DEPTH:
                    self.horizon += 1
                return e.value
        if depth == 0:
            self.horizon += 1
            return self.value[other] - self.value[p]
        if self.size[p] == 1:
            value = self.single_best(p)
            if value >= 0:  # its last tile goes out now with the best play: the value (see pass_bound)
                value += 2 * self.value[other]
                self.store(key, value, NO_MOVE, EXACT_DEPTH, EXACT)
                return value
            stuck = True  # its one tile has no play here: passing is its one move, no plays to find
        if depth > 1:
            value = self.waiting_bound(p, zero, beta)
            if value >= beta:  # proved no worse: p may pass, and the opponent's plays alone get no more
                self.waiting_cuts += 1
                self.store(key, value, PASS, EXACT_DEPTH, LOWER)
                return value
            if self.stopped:
                return 0
        horizon_before = self.horizon
        moves = &self.no_plays if stuck else self.moves_of(p)
        if moves == NULL:
            return 0
        if self.size[p] == 1 and moves.n:  # its last tile goes out now, with the best play (see pass_bound)
            value = self.pass_bound(p, moves)
            self.unpin(moves)
            self.store(key, value, 0, EXACT_DEPTH, EXACT)
            return value
        if (depth > 1 or moves.n == 0) and not self.solo_known_above(key, alpha):
            value = self.solo_bound(p, moves, alpha)
            if value <= alpha:  # proved no better: not even with the opponent passing to the end
                self.solo_cuts += 1
                self.unpin(moves)
                self.store(key, value, NO_MOVE, EXACT_DEPTH, UPPER)
                return value
        if depth == 1:
            value = self.last_move(p, moves, zero, key)
            self.unpin(moves)
            return value
        if first >= moves.n:
            first = NO_MOVE  # a hash collision
        threat = self.threats(other)
        if self.stopped:
            self.unpin(moves)
            return 0
        best = -INFINITY
        best_move = NO_MOVE
        n_first = 0 if first == NO_MOVE else 1
        n_listed = n_first + moves.n + 1
        n = 0
        while True:  # the table's move, then every other play and the pass, then those put off
            if n < n_first:
                i = first
            elif n < n_listed:
                i = n - n_first if n - n_first < moves.n else PASS
                if n_first and i == first:
                    n += 1
                    continue
            elif n - n_listed < self.defer_top - put_off:
                i = self.defer_stack[put_off + n - n_listed]
            else:
                break
            again = n >= n_listed
            n += 1
            bound = INFINITY
            if threat != NULL and (i == PASS or moves.first[i + 1] - moves.first[i] != self.size[p]):
                bound = self.threat_bound(p, moves, i, threat, zero)
                if bound <= alpha:
                    self.threatened += 1
            if bound > alpha:
                bound = self.play_bound(p, moves, i, zero, alpha, &solo, &read)
                if bound <= alpha:
                    self.rest_cuts += 1
            if bound <= alpha:
                value = bound  # proved no better: the opponent goes out, or p's tiles left alone get no more
            elif best == -INFINITY:
                value = self.child(p, moves, i, depth, alpha, beta, zero)
            else:
                # a null window first: most moves only need proving worse; put off where another
                # search is in the position it leads to (the first play never: as Young Brothers Wait)
                self.exclusive = self.busy != NULL and not again and self.defer_top < DEFER_CAP
                value = self.child(p, moves, i, depth, alpha, alpha + 1, zero)
                self.exclusive = False
                if self.deferred:
                    self.deferred = False
                    self.defer_stack[self.defer_top] = i
                    self.defer_top += 1
                    self.deferrals += 1
                    continue
                if alpha < value < beta and not self.stopped:
                    value = self.child(p, moves, i, depth, value, beta, zero)
            if self.stopped:
                break
            if value > best:
                best = value
                best_move = i
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        self.defer_top = put_off
        self.unpin(threat)
        self.unpin(moves)
        if self.stopped:
            return 0
        self.store(key, best, best_move, EXACT_DEPTH if self.horizon == horizon_before else depth,
                   UPPER if best <= alpha0 else LOWER if best >= beta else EXACT)
        return best

    cdef int last_move(self, int p, Moves* moves, int zero, uint64_t key) noexcept nogil:
        """A node one move from the horizon, valued without visiting its children:
        going out is worth its score and twice the other rack, any other play
        its score plus its tiles' points (what leaves the rack) against the racks
        at the horizon (the first going out and `top_gain` are the best of each
        kind); a pass is worth the racks' difference, at the horizon or at the
        game's end."""
        cdef int other = 1 - p, best, best_move = PASS, value
        cdef bint horizon = zero + 1 < MAX_ZERO_TURNS
        best = self.value[other] - self.value[p]
        if moves.n_out:
            value = moves.score[0] + 2 * self.value[other]
            if value > best:
                best, best_move = value, 0
        if moves.n > moves.n_out:
            horizon = True
            value = moves.gain[moves.top_gain] + self.value[other] - self.value[p]
            if value > best:
                best, best_move = value, moves.top_gain
        if horizon:
            self.horizon += 1
        self.store(key, best, best_move, 1 if horizon else EXACT_DEPTH, EXACT)
        return best

    cdef int raise_stopped(self) except -1:
        """Raise what stopped the search just run (and make ready for the next)."""
        cdef int why = self.stopped
        self.stopped = RUNNING
        if why == STOP_TIME:
            raise OutOfTime()
        if why == STOP_NODES:
            raise OutOfNodes()
        if why == STOP_SHARED:
            raise Superseded()
        if why == STOP_MEMORY:
            raise MemoryError()
        return 0

    def root(self, int depth, int alpha, int beta):
        """Search to `depth` plies within (alpha, beta) without the GIL; (value, whether it
        reached every game's end)."""
        cdef long before = self.horizon
        cdef int value, zero = self.start_zero
        self.stopped = RUNNING
        with nogil:
            value = self.negamax(0, depth, alpha, beta, zero)
        self.raise_stopped()
        return value, self.horizon == before

    def after(self, int player, play, int depth, int alpha, int beta, int zero):
        cdef Moves* moves = self.moves_or_raise(player)
        cdef int i, value
        try:
            i = PASS if play is None else self.listed_plays(moves).index(play)
            self.stopped = RUNNING
            with nogil:
                value = self.child(player, moves, i, depth, alpha, beta, zero)
        finally:
            self.unpin(moves)
        self.raise_stopped()
        return value
