# The search for plays: anchors ranked by a bound on their equity, word starts and extensions through the graph, cross-checks, scores.
# Part of _movegen.pyx (included there, in this order: one C module, so calls across parts inline).


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
