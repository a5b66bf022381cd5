# The simulation's playouts, whole, without the GIL.
# Part of _movegen.pyx (included there, in this order: one C module, so calls across parts inline).


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
