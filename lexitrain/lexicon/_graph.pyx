# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The word graph's construction compiled to C: `graph.build`'s algorithm
(Daciuk et al.'s incremental minimisation of sorted words, then the nodes
numbered breadth first), giving the same records byte for byte.

Built by `pip install .` where a C compiler is found (setup.py), beside the
compiled move generator; without one `graph.build` runs in Python.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stdint cimport uint32_t, uint64_t

cdef enum:
    FIELDS = 3         # words of a record before the edges (see graph.py)
    MAX_LETTERS = 32   # masks are 32-bit

#: the widest tile set this builder takes
LIMITS = {"letters": MAX_LETTERS}


cdef class _Builder:
    # registered nodes: whether a word ends there, and their edges in one pool
    cdef char* final
    cdef int* first
    cdef int* count
    cdef int nodes, node_cap
    cdef unsigned char* letter
    cdef int* child
    cdef int edges, edge_cap
    # the register: a hash table of node numbers (-1: free)
    cdef int* table
    cdef int table_size
    # the path of the last word, not registered yet: per depth its final
    # flag and its edges so far (at most `letters`)
    cdef char* path_final
    cdef int* path_count
    cdef unsigned char* path_letter
    cdef int* path_child
    cdef int letters

    def __cinit__(self):
        self.final = NULL
        self.first = NULL
        self.count = NULL
        self.letter = NULL
        self.child = NULL
        self.table = NULL
        self.path_final = NULL
        self.path_count = NULL
        self.path_letter = NULL
        self.path_child = NULL

    def __dealloc__(self):
        PyMem_Free(self.final)
        PyMem_Free(self.first)
        PyMem_Free(self.count)
        PyMem_Free(self.letter)
        PyMem_Free(self.child)
        PyMem_Free(self.table)
        PyMem_Free(self.path_final)
        PyMem_Free(self.path_count)
        PyMem_Free(self.path_letter)
        PyMem_Free(self.path_child)

    cdef int allocate(self, int depth, int letters) except -1:
        self.letters = letters
        self.node_cap = 1024
        self.edge_cap = 4096
        self.table_size = 4096
        self.final = <char*>PyMem_Malloc(self.node_cap)
        self.first = <int*>PyMem_Malloc(self.node_cap * sizeof(int))
        self.count = <int*>PyMem_Malloc(self.node_cap * sizeof(int))
        self.letter = <unsigned char*>PyMem_Malloc(self.edge_cap)
        self.child = <int*>PyMem_Malloc(self.edge_cap * sizeof(int))
        self.table = <int*>PyMem_Malloc(self.table_size * sizeof(int))
        self.path_final = <char*>PyMem_Malloc(depth + 1)
        self.path_count = <int*>PyMem_Malloc((depth + 1) * sizeof(int))
        self.path_letter = <unsigned char*>PyMem_Malloc((depth + 1) * letters)
        self.path_child = <int*>PyMem_Malloc((depth + 1) * letters * sizeof(int))
        if not (self.final and self.first and self.count and self.letter and self.child and self.table
                and self.path_final and self.path_count and self.path_letter and self.path_child):
            raise MemoryError()
        for n in range(self.table_size):
            self.table[n] = -1
        return 0

    cdef uint64_t hash_path(self, int d):
        cdef uint64_t h = 1469598103934665603ULL ^ <uint64_t>self.path_final[d]
        cdef int k, base = d * self.letters
        for k in range(self.path_count[d]):
            h = (h ^ self.path_letter[base + k]) * 1099511628211ULL
            h = (h ^ <uint64_t>self.path_child[base + k]) * 1099511628211ULL
        return h

    cdef uint64_t hash_node(self, int n):
        cdef uint64_t h = 1469598103934665603ULL ^ <uint64_t>self.final[n]
        cdef int k
        for k in range(self.first[n], self.first[n] + self.count[n]):
            h = (h ^ self.letter[k]) * 1099511628211ULL
            h = (h ^ <uint64_t>self.child[k]) * 1099511628211ULL
        return h

    cdef bint same(self, int n, int d):
        cdef int k, base = d * self.letters, at = self.first[n]
        if self.final[n] != self.path_final[d] or self.count[n] != self.path_count[d]:
            return False
        for k in range(self.path_count[d]):
            if self.letter[at + k] != self.path_letter[base + k] or self.child[at + k] != self.path_child[base + k]:
                return False
        return True

    cdef int store(self, int d) except -1:
        """Add the path node at depth d as a new node; its number."""
        cdef int k, base = d * self.letters, n = self.nodes
        if self.nodes == self.node_cap:
            self.node_cap *= 2
            self.final = <char*>grow(self.final, self.node_cap)
            self.first = <int*>grow(self.first, self.node_cap * sizeof(int))
            self.count = <int*>grow(self.count, self.node_cap * sizeof(int))
        while self.edges + self.path_count[d] > self.edge_cap:
            self.edge_cap *= 2
            self.letter = <unsigned char*>grow(self.letter, self.edge_cap)
            self.child = <int*>grow(self.child, self.edge_cap * sizeof(int))
        self.final[n] = self.path_final[d]
        self.first[n] = self.edges
        self.count[n] = self.path_count[d]
        for k in range(self.path_count[d]):
            self.letter[self.edges] = self.path_letter[base + k]
            self.child[self.edges] = self.path_child[base + k]
            self.edges += 1
        self.nodes += 1
        return n

    cdef int rehash(self) except -1:
        cdef int n, slot
        PyMem_Free(self.table)
        self.table_size *= 2
        self.table = <int*>PyMem_Malloc(self.table_size * sizeof(int))
        if self.table == NULL:
            raise MemoryError()
        for slot in range(self.table_size):
            self.table[slot] = -1
        for n in range(self.nodes):
            slot = <int>(self.hash_node(n) & <uint64_t>(self.table_size - 1))
            while self.table[slot] >= 0:
                slot = (slot + 1) & (self.table_size - 1)
            self.table[slot] = n
        return 0

    cdef int register(self, int d) except -1:
        """The registered node equal to the path node at depth d, registering it if new."""
        cdef int slot, n
        if 2 * self.nodes >= self.table_size:
            self.rehash()
        slot = <int>(self.hash_path(d) & <uint64_t>(self.table_size - 1))
        while self.table[slot] >= 0:
            n = self.table[slot]
            if self.same(n, d):
                return n
            slot = (slot + 1) & (self.table_size - 1)
        n = self.store(d)
        self.table[slot] = n
        return n

    cdef int minimise(self, int deepest, int down_to) except -1:
        """Register the path nodes below depth `down_to`, deepest first, and
        point their parents' last edges at the registered nodes."""
        cdef int d
        for d in range(deepest, down_to, -1):
            self.path_child[(d - 1) * self.letters + self.path_count[d - 1] - 1] = self.register(d)
        return 0


cdef void* grow(void* block, size_t size) except NULL:
    cdef void* bigger = PyMem_Realloc(block, size)
    if bigger == NULL:
        raise MemoryError()
    return bigger


def build(list words, int letters) -> bytearray:
    """The records of the minimal DAWG of `words` (sorted, distinct bytes of
    tile indices), as graph.py lays them out, in 32-bit words."""
    cdef _Builder b = _Builder()
    cdef int depth = 1, length, previous_length = 0, common, d, k, n, root
    cdef const unsigned char* word
    cdef const unsigned char* previous = NULL
    cdef bytes item
    if letters > MAX_LETTERS:
        raise ValueError("outside the compiled builder's limits")
    for item in words:
        depth = max(depth, PyBytes_GET_SIZE(item))
    b.allocate(depth, letters)
    b.path_final[0] = 0
    b.path_count[0] = 0
    for item in words:
        word = <const unsigned char*>PyBytes_AS_STRING(item)
        length = PyBytes_GET_SIZE(item)
        common = 0
        while common < length and common < previous_length and word[common] == previous[common]:
            common += 1
        b.minimise(previous_length, common)
        for d in range(common, length):
            if word[d] >= letters:
                raise ValueError(f"tile index {word[d]} outside the tile set")
            k = b.path_count[d]
            b.path_letter[d * letters + k] = word[d]
            b.path_count[d] = k + 1
            b.path_final[d + 1] = 0
            b.path_count[d + 1] = 0
        b.path_final[length] = 1
        previous = word
        previous_length = length
    b.minimise(previous_length, 0)
    root = b.store(0)
    return lay_out(b, root)


cdef bytearray lay_out(_Builder b, int root):
    """Number the nodes breadth first from the root and write their records."""
    cdef int record = b.letters + FIELDS
    cdef int* order = <int*>PyMem_Malloc(b.nodes * sizeof(int))
    cdef int* number = <int*>PyMem_Malloc(b.nodes * sizeof(int))
    cdef int head = 0, tail = 1, n, k, target, at
    cdef uint32_t mask, final, ahead
    cdef bytearray out
    cdef uint32_t* data
    if order == NULL or number == NULL:
        PyMem_Free(order)
        PyMem_Free(number)
        raise MemoryError()
    try:
        for n in range(b.nodes):
            number[n] = -1
        order[0] = root
        number[root] = 0
        while head < tail:
            n = order[head]
            head += 1
            for k in range(b.first[n], b.first[n] + b.count[n]):
                target = b.child[k]
                if number[target] < 0:
                    number[target] = tail * record
                    order[tail] = target
                    tail += 1
        out = bytearray(tail * record * sizeof(uint32_t))
        data = <uint32_t*><char*>out
        for at in range(tail * record):
            data[at] = 0
        for head in range(tail):
            n = order[head]
            at = head * record
            mask = final = 0
            for k in range(b.first[n], b.first[n] + b.count[n]):
                target = b.child[k]
                mask |= 1u << b.letter[k]
                if b.final[target]:
                    final |= 1u << b.letter[k]
                data[at + FIELDS + b.letter[k]] = number[target]
            data[at] = mask
            data[at + 1] = final
        for head in range(tail):
            at = head * record
            ahead = 0
            mask = data[at]
            for k in range(b.letters):
                if mask >> k & 1:
                    ahead |= data[data[at + FIELDS + k]]
            data[at + 2] = ahead
        return out
    finally:
        PyMem_Free(order)
        PyMem_Free(number)
