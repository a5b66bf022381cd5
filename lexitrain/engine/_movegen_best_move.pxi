# The best move by equity: a play's score and leave, an exchange, or a pass.
# Part of _movegen.pyx (included there, in this order: one C module, so calls across parts inline).


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
