# Whole self-play games in C, the bag drawn as Python's random module draws it.
# Part of _movegen.pyx (included there, in this order: one C module, so calls across parts inline).


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
