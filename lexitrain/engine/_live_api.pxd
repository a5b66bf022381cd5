# The LiveBoard's C entry points (_movegen.pyx fills them, `LiveBoard.api`), which the endgame
# search (_endgame.pyx) calls without the GIL: one declaration for both sides of the capsule.

cdef extern from *:
    """
    #ifndef LEXITRAIN_LIVE_API
    #define LEXITRAIN_LIVE_API
    typedef struct LiveApi {
        void* board;
        void (*set)(void* board, int k, int t);
        int (*find)(void* board, const int* counts, int kinds, int blanks, int** packed, int* cap);
        int (*best_single)(void* board, int letter);
    } LiveApi;
    #endif
    """
    ctypedef struct LiveApi:
        void* board
        void (*set)(void* board, int k, int t) noexcept nogil
        int (*find)(void* board, const int* counts, int kinds, int blanks, int** packed, int* cap) noexcept nogil
        int (*best_single)(void* board, int letter) noexcept nogil
