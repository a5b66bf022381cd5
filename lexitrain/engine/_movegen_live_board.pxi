# A board kept ready for move generation while tiles come and go (the endgame's), and its C entry points.
# Part of _movegen.pyx (included there, in this order: one C module, so calls across parts inline).


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
