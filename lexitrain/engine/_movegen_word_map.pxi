# The word map: which multisets of tiles make a word (or a word less one letter), by a hash of the multiset's key.
# Part of _movegen.pyx (included there, in this order: one C module, so calls across parts inline).


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
