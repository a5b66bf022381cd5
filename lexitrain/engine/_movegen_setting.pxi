# A lexicon's graph and a board's rules as the searches read them.
# Part of _movegen.pyx (included there, in this order: one C module, so calls across parts inline).


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
