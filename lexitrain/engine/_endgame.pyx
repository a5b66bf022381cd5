# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The endgame search compiled to C: endgame.PythonSearch's algorithm
(negamax, alpha-beta with a null window after the first move, the
transposition table, iterative deepening) with the board, racks, hashes and
table in C arrays, and three things the reference leaves out because they
only save time:

- plays come from the move generator's LiveBoard, which keeps the board's
  cross-checks and anchors up to date as tiles are played and taken back
  (only the squares a change touches), instead of reading the whole board
  each time; still once per board and rack, kept with each play's squares,
  tiles and score as C arrays;
- plays are tried going out first, then by score plus the points of the
  tiles they place plus 15 a tile; a node one move from the horizon is
  valued without visiting its children: by its best play going out and the
  play of the highest score plus points placed (its exact worth there);
- the table keeps two entries a bucket, the deepest searched and the latest;
- where the opponent (four tiles or fewer) can go out, a play that leaves the
  squares of such a play alone is bounded without a search: at most its score
  less the opponent's going out (`threat_bound`), often enough to refute it.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int16_t, int32_t, int8_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memset

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
    """
    int popcount(unsigned long long x) nogil

import time

from lexitrain.engine.endgame import (EXACT_DEPTH, INFINITY, MAX_ZERO_TURNS, PLAYS_LIMIT, OutOfNodes, OutOfTime,
                                      Zobrist, rack_value)
from lexitrain.engine.play import ScoredPlay
from lexitrain.tiles import RACK_SIZE

from lexitrain.engine import _movegen

cdef enum:
    EMPTY = -1
    BLANK_FLAG = 128
    LETTER_MASK = 127
    MAX_SLOTS = 33      # letters and the blank
    MAX_SQUARES = 4096
    EXACT = 0
    LOWER = 1
    UPPER = 2
    NO_MOVE = -1
    PASS = -2
    TABLE_BITS = 21
    FLAT_FIELDS = 7     # ints before a play's tiles in find_flat's array
    RACK_TILES = 16     # most tiles a play places
    ZERO_KEYS = 7       # MAX_ZERO_TURNS + 1
    TILE_WEIGHT = 15    # points a tile placed adds to a play's place in the order (see Moves.load)
    THREATS = 4         # the opponent's plays going out whose reach is worked out (see Search.threat_bound)
    THREAT_TILES = 4    # ... when the opponent holds at most this many tiles
    ZONE_WORDS = 8      # 64-bit words of a threat's reach: boards of up to 512 squares


cdef struct Entry:
    uint64_t key
    int32_t value
    int32_t move    # index in the plays of this board and rack, PASS or NO_MOVE
    int16_t depth
    int8_t flag


cdef struct Ranked:
    int at       # where the play starts in find_flat's array
    int index    # its place there (ties keep it)
    int out      # it goes out
    int gain     # its score plus the points of the tiles it places
    int key


cdef int compare_ranked(const void* a, const void* b) noexcept nogil:
    """Going out first, then the higher key, then the generator's order."""
    cdef const Ranked* x = <const Ranked*>a
    cdef const Ranked* y = <const Ranked*>b
    if x.out != y.out:
        return y.out - x.out
    if x.key != y.key:
        return y.key - x.key
    return x.index - y.index


cdef class Moves:
    """One board's plays for one rack, going out first, then by score: per
    play its score and the squares and tiles it fills, in C arrays; the
    ScoredPlays are made only when asked for (`plays`)."""
    cdef int n
    cdef int n_out     # plays 0 .. n_out - 1 go out
    cdef int top_gain  # the play (not going out) of the highest gain
    cdef int* score
    cdef int* gain     # score plus the points of the tiles placed
    cdef int* first    # play i fills tiles first[i] .. first[i + 1] - 1
    cdef int* square
    cdef int* tile
    cdef int* record   # where play i starts in `flat`
    cdef object flat
    cdef list listed
    cdef int n_zone    # plays going out whose reach `zone` holds (-1: not worked out yet)
    cdef uint64_t zone[THREATS][ZONE_WORDS]  # the squares a play must leave alone for play j to stay as it is

    def __cinit__(self):
        self.score = NULL
        self.gain = NULL
        self.first = NULL
        self.square = NULL
        self.tile = NULL
        self.record = NULL
        self.n_zone = -1

    def __dealloc__(self):
        PyMem_Free(self.score)
        PyMem_Free(self.gain)
        PyMem_Free(self.first)
        PyMem_Free(self.square)
        PyMem_Free(self.tile)
        PyMem_Free(self.record)

    cdef int load(self, object flat, int cols, int rack_size, int* points) except -1:
        """Read the move generator's packed plays (movegen's find_flat), in the
        order the search tries them: those that go out by score, then the rest
        by their `gain` (the score plus the points of the tiles placed: what the
        play is worth one move from the search's horizon) plus TILE_WEIGHT a
        tile placed, as playing more tiles brings going out closer (15 measured
        best of 0-30: a third fewer positions on a 7-against-7 endgame of the
        benchmark), ties in the generator's order."""
        cdef const int[::1] v = flat
        cdef int total = v.shape[0], at = 0, n = 0, i, j, k, length, placed, dr, dc, t, pts
        cdef unsigned long long through
        cdef Ranked* ranked
        self.flat = flat
        while at < total:
            n += 1
            at += FLAT_FIELDS + v[at + 4]
        self.n = n
        self.n_out = 0
        self.score = <int*>PyMem_Malloc((n + 1) * sizeof(int))
        self.gain = <int*>PyMem_Malloc((n + 1) * sizeof(int))
        self.first = <int*>PyMem_Malloc((n + 1) * sizeof(int))
        self.record = <int*>PyMem_Malloc((n + 1) * sizeof(int))
        self.square = <int*>PyMem_Malloc((n * RACK_TILES + 1) * sizeof(int))
        self.tile = <int*>PyMem_Malloc((n * RACK_TILES + 1) * sizeof(int))
        ranked = <Ranked*>PyMem_Malloc((n + 1) * sizeof(Ranked))
        if not (self.score and self.gain and self.first and self.record and self.square and self.tile and ranked):
            PyMem_Free(ranked)
            raise MemoryError()
        at = 0
        for i in range(n):
            length = v[at + 4]
            through = (<unsigned long long>(<unsigned int>v[at + 6]) << 32) | <unsigned int>v[at + 5]
            placed = length - popcount(through)
            pts = 0
            for j in range(length):
                if not (through >> j) & 1:
                    t = v[at + FLAT_FIELDS + j]
                    if t < BLANK_FLAG:
                        pts += points[t]
            ranked[i].at = at
            ranked[i].index = i
            ranked[i].out = placed == rack_size
            ranked[i].gain = v[at] + pts
            ranked[i].key = v[at] if ranked[i].out else v[at] + pts + TILE_WEIGHT * placed
            if ranked[i].out:
                self.n_out += 1
            at += FLAT_FIELDS + length
        qsort(ranked, n, sizeof(Ranked), compare_ranked)
        k = 0
        for i in range(n):
            at = ranked[i].at
            length = v[at + 4]
            through = (<unsigned long long>(<unsigned int>v[at + 6]) << 32) | <unsigned int>v[at + 5]
            self.score[i] = v[at]
            self.gain[i] = ranked[i].gain
            self.first[i] = k
            self.record[i] = at
            dr, dc = (1, 0) if v[at + 3] else (0, 1)
            for j in range(length):
                if not (through >> j) & 1:
                    self.square[k] = (v[at + 1] + dr * j) * cols + v[at + 2] + dc * j
                    self.tile[k] = v[at + FLAT_FIELDS + j]
                    k += 1
        self.first[n] = k
        self.top_gain = self.n_out
        for i in range(self.n_out, n):
            if self.gain[i] > self.gain[self.top_gain]:
                self.top_gain = i
        PyMem_Free(ranked)
        return 0

    cdef list plays(self):
        """The plays as ScoredPlays, in this order."""
        cdef const int[::1] v = self.flat
        cdef int i, at, length
        if self.listed is None:
            self.listed = []
            for i in range(self.n):
                at = self.record[i]
                length = v[at + 4]
                through = (<unsigned long long>(<unsigned int>v[at + 6]) << 32) | <unsigned int>v[at + 5]
                letters = tuple([v[at + FLAT_FIELDS + j] for j in range(length)])
                self.listed.append(ScoredPlay(v[at + 1], v[at + 2], bool(v[at + 3]), letters, through, v[at]))
        return self.listed


cdef class Search:
    """The compiled twin of endgame.PythonSearch (same methods the solver calls)."""
    cdef object board
    cdef list squares
    cdef int cols, rows, letters, n_squares
    cdef int points[MAX_SLOTS]
    cdef uint64_t* zsquare      # [square * 256 + tile]
    cdef uint64_t zrack[2][MAX_SLOTS][17]
    cdef uint64_t zzero[ZERO_KEYS]
    cdef int rack[2][MAX_SLOTS]
    cdef int value[2]
    cdef int size[2]
    cdef uint64_t rack_key[2][2]
    cdef uint64_t board_key
    cdef Entry* table
    cdef uint64_t table_mask
    cdef dict cache
    cdef object live            # the move generator's LiveBoard: the board as of the last generation
    cdef int live_tile[MAX_SQUARES]   # what each square holds on it
    cdef int dirty[MAX_SQUARES]       # squares changed since (each listed once)
    cdef char is_dirty[MAX_SQUARES]
    cdef int n_dirty
    cdef public long nodes
    cdef public long node_limit  # stop (OutOfNodes) past this many positions; 0: no limit
    cdef public long horizon
    cdef public long generated   # move generations (cache misses)
    cdef public long threatened  # plays proved worse by the opponent's going out without a search
    cdef bint zoned              # the board is small enough for threat zones
    cdef object deadline
    cdef int start_zero

    def __cinit__(self):
        self.zsquare = NULL
        self.table = NULL

    def __dealloc__(self):
        PyMem_Free(self.zsquare)
        PyMem_Free(self.table)

    def __init__(self, endgame, generator, deadline):
        cdef int k, t, s, letter, n, p
        board = endgame.board.copy()
        self.board = board
        self.squares = board.squares
        self.rows, self.cols = board.rows, board.cols
        self.n_squares = len(self.squares)
        tiles = board.tiles
        self.letters = tiles.size
        if self.letters + 1 > MAX_SLOTS or self.n_squares > MAX_SQUARES:
            raise ValueError("outside the compiled endgame search's limits")
        for letter in range(self.letters):
            self.points[letter] = tiles.points[letter]
        self.points[self.letters] = 0
        zobrist = Zobrist(self.n_squares, self.letters)
        self.zsquare = <uint64_t*>PyMem_Malloc(self.n_squares * 256 * sizeof(uint64_t))
        self.table = <Entry*>PyMem_Malloc((1 << TABLE_BITS) * sizeof(Entry))
        if not (self.zsquare and self.table):
            raise MemoryError()
        memset(self.table, 0, (1 << TABLE_BITS) * sizeof(Entry))
        self.table_mask = (1 << (TABLE_BITS - 1)) - 1  # buckets of two entries
        for k in range(self.n_squares):
            for t in range(256):
                self.zsquare[k * 256 + t] = zobrist.square[k][t]
        for s in range(2):
            for letter in range(self.letters + 1):
                for n in range(17):
                    self.zrack[s][letter][n] = zobrist.rack[s][letter][n]
        for n in range(MAX_ZERO_TURNS + 1):
            self.zzero[n] = zobrist.zero[n]
        self.cache = {}
        self.live = _movegen.LiveBoard(generator.setting(board), self.squares)
        for k in range(self.n_squares):
            self.live_tile[k] = self.squares[k]
            self.is_dirty[k] = 0
        self.n_dirty = 0
        self.nodes = 0
        self.node_limit = 0
        self.horizon = 0
        self.generated = 0
        self.threatened = 0
        self.zoned = self.n_squares <= ZONE_WORDS * 64
        self.reset(endgame, deadline)

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
            if self.squares[k] != t:
                self.squares[k] = t
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
        self.start_zero = endgame.zero_turns

    # -- what the solver reads ----------------------------------------------------------
    @property
    def sizes(self):
        return [self.size[0], self.size[1]]

    @property
    def values(self):
        return [self.value[0], self.value[1]]

    # -- making and taking back plays ----------------------------------------------------
    cdef inline void take(self, int p, int slot, int delta):
        cdef int n = self.rack[p][slot]
        self.rack[p][slot] = n + delta
        self.rack_key[p][0] ^= self.zrack[0][slot][n] ^ self.zrack[0][slot][n + delta]
        self.rack_key[p][1] ^= self.zrack[1][slot][n] ^ self.zrack[1][slot][n + delta]

    cdef void make_index(self, int p, Moves moves, int i):
        cdef int j, k, t
        for j in range(moves.first[i], moves.first[i + 1]):
            k = moves.square[j]
            t = moves.tile[j]
            self.squares[k] = t
            self.touch(k)
            self.board_key ^= self.zsquare[k * 256 + t]
            if t >= BLANK_FLAG:
                self.take(p, self.letters, -1)
            else:
                self.take(p, t, -1)
                self.value[p] -= self.points[t]
            self.size[p] -= 1

    cdef void unmake_index(self, int p, Moves moves, int i):
        cdef int j, k, t
        for j in range(moves.first[i], moves.first[i + 1]):
            k = moves.square[j]
            t = moves.tile[j]
            self.squares[k] = EMPTY
            self.touch(k)
            self.board_key ^= self.zsquare[k * 256 + t]
            if t >= BLANK_FLAG:
                self.take(p, self.letters, 1)
            else:
                self.take(p, t, 1)
                self.value[p] += self.points[t]
            self.size[p] += 1

    cdef inline void touch(self, int k):
        if not self.is_dirty[k]:
            self.is_dirty[k] = 1
            self.dirty[self.n_dirty] = k
            self.n_dirty += 1

    cdef void sync(self):
        """Bring the LiveBoard to this board: the squares changed since it last generated."""
        cdef int n, k, t
        for n in range(self.n_dirty):
            k = self.dirty[n]
            self.is_dirty[k] = 0
            t = self.squares[k]
            if t != self.live_tile[k]:
                self.live_tile[k] = t
                self.live.set(k, t)
        self.n_dirty = 0

    cdef Moves moves_of(self, int p):
        """The player's plays on this board: from the cache, else the move generator."""
        cdef int letter
        cdef object key = self.board_key ^ self.rack_key[p][0]  # a 64-bit hash of board and rack
        cdef Moves moves = self.cache.get(key)
        if moves is not None:
            return moves
        counts = tuple([self.rack[p][letter] for letter in range(self.letters)])
        self.sync()
        flat = self.live.find_flat(counts, self.rack[p][self.letters])
        self.generated += 1
        moves = Moves()
        moves.load(flat, self.cols, self.size[p], self.points)
        if len(self.cache) >= PLAYS_LIMIT:
            self.cache.clear()
        self.cache[key] = moves
        return moves

    def plays(self, int player):
        return self.moves_of(player).plays()

    def make(self, int player, play):
        cdef Moves moves = self.moves_of(player)
        self.make_index(player, moves, moves.plays().index(play))

    def unmake(self, int player, play):
        cdef Moves moves
        cdef int j, k, t
        # the play's squares hold its tiles now: take them back directly
        dr, dc = (1, 0) if play.down else (0, 1)
        for j in range(len(play.letters)):
            if play.through >> j & 1:
                continue
            k = (play.row + dr * j) * self.cols + play.col + dc * j
            t = play.letters[j]
            self.squares[k] = EMPTY
            self.touch(k)
            self.board_key ^= self.zsquare[k * 256 + t]
            if t >= BLANK_FLAG:
                self.take(player, self.letters, 1)
            else:
                self.take(player, t, 1)
                self.value[player] += self.points[t]
            self.size[player] += 1

    # -- the search ------------------------------------------------------------------------
    cdef inline uint64_t key_of(self, int p, int zero):
        return self.board_key ^ self.rack_key[p][0] ^ self.rack_key[1 - p][1] ^ self.zzero[zero]

    cdef inline Entry* probe(self, uint64_t key):
        """The table's entry for this key, or NULL."""
        cdef Entry* bucket = &self.table[(key & self.table_mask) << 1]
        if bucket[0].key == key:
            return bucket
        if bucket[1].key == key:
            return &bucket[1]
        return NULL

    cdef inline void store(self, uint64_t key, int value, int move, int depth, int flag):
        """Keep a result: a bucket holds two, the one searched deepest (an exact
        one deepest of all) and the latest, so long proofs survive the many
        shallow nodes searched after them."""
        cdef Entry* bucket = &self.table[(key & self.table_mask) << 1]
        cdef Entry* e
        if bucket[0].key == key or depth >= bucket[0].depth:
            if bucket[0].key != key:
                bucket[1] = bucket[0]
            e = bucket
        else:
            e = &bucket[1]
        e.key = key
        e.value = value
        e.move = move
        e.depth = depth
        e.flag = flag

    def table_move(self, int player, int zero):
        """(whether the table holds this position, its move: a play or None for a pass)."""
        cdef uint64_t key = self.key_of(player, zero)
        cdef Entry* e = self.probe(key)
        cdef Moves moves
        if e == NULL or e.move == NO_MOVE:
            return False, None
        if e.move == PASS:
            return True, None
        moves = self.moves_of(player)
        return (True, moves.plays()[e.move]) if e.move < moves.n else (False, None)

    cdef int child(self, int p, Moves moves, int i, int depth, int alpha, int beta, int zero) except? -999999:
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
        try:
            rest = self.negamax(other, depth - 1, score - beta, score - alpha, 0 if score else zero + 1)
        finally:
            self.unmake_index(p, moves, i)
        return score - rest

    cdef void zone_out(self, Moves moves):
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
                    while 0 <= rr < self.rows and 0 <= cc < self.cols and self.squares[rr * self.cols + cc] != EMPTY:
                        rr += dr[d]
                        cc += dc[d]
                    if 0 <= rr < self.rows and 0 <= cc < self.cols:
                        k = rr * self.cols + cc
                        moves.zone[j][k >> 6] |= (<uint64_t>1) << (k & 63)

    cdef Moves threats(self, int other):
        """The opponent's plays here, their reach worked out, if some go out; else None."""
        cdef Moves threat
        if not self.zoned or self.size[other] > THREAT_TILES:
            return None
        threat = self.moves_of(other)
        if threat.n_zone < 0:
            self.zone_out(threat)
        return threat if threat.n_zone else None

    cdef int threat_bound(self, int p, Moves moves, int i, Moves threat, int zero):
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

    cdef int negamax(self, int p, int depth, int alpha, int beta, int zero) except? -999999:
        cdef int other = 1 - p, n, i, value, bound, best, best_move, alpha0 = alpha, first = NO_MOVE, count
        cdef long horizon_before
        cdef uint64_t key = self.key_of(p, zero)
        cdef Entry* e = self.probe(key)
        cdef Moves moves, threat
        self.nodes += 1
        if self.deadline is not None and not self.nodes & 1023 and time.monotonic() > self.deadline:
            raise OutOfTime()
        if self.node_limit and self.nodes > self.node_limit:
            raise OutOfNodes()
        if e != NULL:
            first = e.move
            if e.depth >= depth and (e.flag == EXACT or e.flag == LOWER and e.value >= beta
                                     or e.flag == UPPER and e.value <= alpha):
                if e.depth != EXACT_DEPTH:
                    self.horizon += 1
                return e.value
        if depth == 0:
            self.horizon += 1
            return self.value[other] - self.value[p]
        horizon_before = self.horizon
        moves = self.moves_of(p)
        if depth == 1:
            return self.last_move(p, moves, zero, key)
        if first >= moves.n:
            first = NO_MOVE  # a hash collision
        threat = self.threats(other)
        best = -INFINITY
        best_move = NO_MOVE
        count = moves.n + 1  # every play, then the pass
        for n in range(count + (1 if first != NO_MOVE else 0)):
            if first != NO_MOVE:
                if n == 0:
                    i = first
                else:
                    i = n - 1 if n - 1 < moves.n else PASS
                    if i == first:
                        continue
            else:
                i = n if n < moves.n else PASS
            bound = INFINITY
            if threat is not None and (i == PASS or moves.first[i + 1] - moves.first[i] != self.size[p]):
                bound = self.threat_bound(p, moves, i, threat, zero)
            if bound <= alpha:  # (alpha < INFINITY: a window is never empty)
                value = bound  # proved no better: the opponent goes out
                self.threatened += 1
            elif best == -INFINITY:
                value = self.child(p, moves, i, depth, alpha, beta, zero)
            else:  # a null window first: most moves only need proving worse
                value = self.child(p, moves, i, depth, alpha, alpha + 1, zero)
                if alpha < value < beta:
                    value = self.child(p, moves, i, depth, value, beta, zero)
            if value > best:
                best = value
                best_move = i
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        self.store(key, best, best_move, EXACT_DEPTH if self.horizon == horizon_before else depth,
                   UPPER if best <= alpha0 else LOWER if best >= beta else EXACT)
        return best

    cdef int last_move(self, int p, Moves moves, int zero, uint64_t key):
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

    def root(self, int depth, int alpha, int beta):
        cdef long before = self.horizon
        value = self.negamax(0, depth, alpha, beta, self.start_zero)
        return value, self.horizon == before

    def after(self, int player, play, int depth, int alpha, int beta, int zero):
        cdef Moves moves = self.moves_of(player)
        cdef int i = PASS if play is None else moves.plays().index(play)
        return self.child(player, moves, i, depth, alpha, beta, zero)
