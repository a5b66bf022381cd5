# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The move generator's search compiled to C: the same algorithm as the pure
Python one in movegen.py, step for step, so it finds the same plays in the
same order (the tests hold both to that, and to a brute-force search).

Built by `pip install .` where a C compiler is found (setup.py); without one
`lexitrain.engine.movegen` runs its pure Python search. Where the Python one
passes tuples and small ints down its recursion, this one keeps the word in
one buffer and the masks in C integers, and needs no memo: a cross-check or
a walk through a run of board tiles costs less than looking one up.

The compiled engine is one C module (so the C compiler inlines across its
parts) kept in one file an idea, included in order at the end: the word map,
the setting, the search, the live board, the leave values, the best move,
self-play and the playouts. This file holds what they share: the C helpers,
the limits and the structures.
"""

cimport cython
from cpython.mem cimport (PyMem_Free, PyMem_Malloc, PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc,
                          PyMem_Realloc)
from cpython.pycapsule cimport PyCapsule_New
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memcmp, memcpy, memmove, memset

from lexitrain.engine._live_api cimport LiveApi

from array import array

cdef extern from *:
    """
    static inline int lowest_bit(unsigned long long x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_ctzll(x);
    #else
        int n = 0;
        while (!(x & 1ULL)) { x >>= 1; n++; }
        return n;
    #endif
    }
    """
    int lowest_bit(unsigned long long x) nogil

cdef extern from *:
    """
    /* A play of the caller's tuple subclass (ScoredPlay), made in place:
       tuple_subtype_new's way, without the tuple it would copy from. */
    static PyObject* new_play(PyObject* cls, long row, long col, int down, PyObject* letters,
                              unsigned long long through, long score) {
        PyTypeObject* type = (PyTypeObject*)cls;
        PyObject* play = type->tp_alloc(type, 6);
        PyObject* items[4];
        if (play == NULL) return NULL;
        items[0] = PyLong_FromLong(row);
        items[1] = PyLong_FromLong(col);
        items[2] = PyLong_FromUnsignedLongLong(through);
        items[3] = PyLong_FromLong(score);
        if (!items[0] || !items[1] || !items[2] || !items[3]) {
            Py_XDECREF(items[0]); Py_XDECREF(items[1]); Py_XDECREF(items[2]); Py_XDECREF(items[3]);
            Py_DECREF(play);
            return NULL;
        }
        PyTuple_SET_ITEM(play, 0, items[0]);
        PyTuple_SET_ITEM(play, 1, items[1]);
        Py_INCREF(down ? Py_True : Py_False);
        PyTuple_SET_ITEM(play, 2, down ? Py_True : Py_False);
        Py_INCREF(letters);
        PyTuple_SET_ITEM(play, 3, letters);
        PyTuple_SET_ITEM(play, 4, items[2]);
        PyTuple_SET_ITEM(play, 5, items[3]);
        return play;
    }
    """
    object new_play(object cls, long row, long col, int down, object letters, unsigned long long through,
                    long score)

cdef enum:
    EMPTY = -1
    BLANK_FLAG = 128
    LETTER_MASK = 127
    FIELDS = 3          # words of a node record before its edges (see lexicon/graph.py)
    MAX_LINE = 64       # longest row or column the search handles
    MAX_RACK = 16       # most tiles on a rack
    MAX_LETTERS = 32    # widest tile set (masks are 32-bit)
    FLAT_FIELDS = 7     # ints before a play's tiles in `find_flat`'s array
    BOARD_STATE = 7     # buffers of a direction's board state (see _Search.board_state)

#: limits the caller checks before choosing this search
LIMITS = {"line": MAX_LINE, "rack": MAX_RACK, "letters": MAX_LETTERS}


cdef struct Found:
    # a play as found: where it starts, its tiles (tile numbers), which of
    # its squares held a tile already, and its score
    int row, col
    bint down
    int length
    uint64_t through
    long score
    uint32_t rem                       # the rack slots it keeps (kept only for the plays tied at the best)
    unsigned char tiles[MAX_LINE]


cdef struct Left:
    # a word start made from the rack: its node, the rack slots it leaves,
    # the letters that would end a word after it and those two steps on,
    # the letters the rack can put next (its group) and its tiles
    uint32_t node
    uint32_t rem
    uint32_t ends
    uint32_t next2
    uint32_t can
    int group
    int length
    int tiles[MAX_RACK]


cdef struct Shape:
    # the board and the rules the search needs of it: its size, its centre square (flat) for the first
    # play, the bingo bonus and the tiles a rack holds
    int rows
    int cols
    int centre
    int bingo
    int rack_size


cdef struct Turn:
    # what the choice of a best move needs beyond the board and the rack: the tiles in the bag, whether
    # they allow an exchange, and a ticket drawing among the plays tied at the best (-1: none)
    int bag
    bint may_exchange
    long long ticket


cdef struct Rules:
    # how a simulation's playouts go on: the moves after the candidate, the fewest tiles in the bag that
    # allow an exchange, and the mover's spread before the candidate
    int plies
    int exchange_limit
    long spread


cdef struct WordBits:
    # the word map (see WordMap): a multiset of tiles' key is the sum of its tiles' `key`s; `made[0]` has
    # the bit of every word's key set, `made[1]` the bit of every key a word's less one of its letters
    uint64_t key[MAX_LETTERS]
    uint64_t* made[2]
    int bits[2]


cdef struct Ranked:
    # an anchor's plays from word starts of one length to search, by the bound on their equity (see
    # _Search.shadow)
    long bound
    int square
    int down
    int k       # the word start's length (the squares left of the anchor the plays fill)
    int number  # the anchor's bounds by word start length: k_bounds[number * 2 * MAX_RACK:] (see shadow)


cdef struct LineBest:
    # the best play from the anchors of one line (see Playout.line_bests)
    bint have
    long equity
    long score
    uint32_t rem
    Found play


cdef extern from *:
    """
    #define NO_PLAY (-(1L << 40))  /* a bound where no play is found */
    #define NO_CAP (1L << 40)      /* no bound on a score */
    """
    long NO_PLAY
    long NO_CAP


cdef extern from *:
    """
    static inline unsigned long long word_bit(unsigned long long key, int bits) {
        return (key * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
    }
    """
    unsigned long long word_bit(unsigned long long key, int bits) nogil


# The parts, in order (each file one idea; `include`d so the C compiler sees one module).
include "_movegen_word_map.pxi"
include "_movegen_setting.pxi"
include "_movegen_search.pxi"
include "_movegen_live_board.pxi"
include "_movegen_leave_values.pxi"
include "_movegen_best_move.pxi"
include "_movegen_self_play.pxi"
include "_movegen_playout.pxi"
