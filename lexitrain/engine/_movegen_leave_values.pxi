# The leave values a best move is chosen by: the exhaustive table and the trained one's cache.
# Part of _movegen.pyx (included there, in this order: one C module, so calls across parts inline).


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
