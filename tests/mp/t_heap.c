/* The symmetric heap: one address on every PE, raw pointers stored in the heap valid everywhere,
 * the allocation routines' contracts (calloc zeroes, realloc keeps contents, align aligns,
 * malloc(0) is NULL, exhaustion is NULL with a message), memory reuse after free. */
#include <shmem.h>

#include "check.h"

struct node {
  struct node *next;
  long value;
};

static void same_address_everywhere(void) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  uintptr_t *table = shmem_malloc(sizeof(uintptr_t) * (size_t)n);
  void *probe = shmem_malloc(4096);
  for (int pe = 0; pe < n; ++pe) shmem_putmem(&table[me], &(uintptr_t){(uintptr_t)probe}, sizeof(uintptr_t), pe);
  shmem_barrier_all();
  for (int pe = 0; pe < n; ++pe) CHECK(table[pe] == (uintptr_t)probe);
  CHECK((uintptr_t)probe >= (uintptr_t)symmem_heap_base());
  shmem_free(probe);
  shmem_free(table);
}

/* PE 0 builds a linked list of raw pointers inside its heap; every other PE walks it with gets:
 * the pointers mean the same thing on every PE because the heap sits at one address. */
static void linked_list_walk(void) {
  const int me = shmem_my_pe();
  const int len = 50;
  struct node *nodes = shmem_malloc(sizeof(struct node) * (size_t)len);
  struct node **head = shmem_malloc(sizeof(struct node *));
  if (me == 0) {
    for (int i = 0; i < len; ++i) {
      int j = (i * 7 + 3) % len; /* scatter the order */
      nodes[j].value = 1000 + i;
      nodes[j].next = NULL;
      if (i == 0) *head = &nodes[j];
      else {
        int prevj = ((i - 1) * 7 + 3) % len;
        nodes[prevj].next = &nodes[j];
      }
    }
  }
  shmem_barrier_all();
  struct node *cur = NULL;
  shmem_getmem(&cur, head, sizeof cur, 0);
  int count = 0;
  while (cur != NULL) {
    struct node local;
    shmem_getmem(&local, cur, sizeof local, 0);
    CHECK_EQ_LONG(local.value, 1000 + count);
    cur = local.next;
    count++;
    CHECK(count <= len);
  }
  CHECK_EQ_LONG(count, len);
  shmem_barrier_all();
  shmem_free(head);
  shmem_free(nodes);
}

static void allocation_contracts(void) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  CHECK(shmem_malloc(0) == NULL);
  long *z = shmem_calloc(1000, sizeof(long));
  CHECK(z != NULL);
  for (int i = 0; i < 1000; ++i) CHECK(z[i] == 0);
  void *a = shmem_align(1 << 16, 100);
  CHECK(a != NULL && ((uintptr_t)a & ((1 << 16) - 1)) == 0);
  int *r = shmem_malloc(16 * sizeof(int));
  for (int i = 0; i < 16; ++i) r[i] = me * 100 + i;
  r = shmem_realloc(r, 4096 * sizeof(int)); /* larger: contents up to the old size stay */
  CHECK(r != NULL);
  for (int i = 0; i < 16; ++i) CHECK_EQ_LONG(r[i], me * 100 + i);
  /* after realloc, peers may write into the new block at once */
  shmem_int_p(&r[4000], me, (me + 1) % n);
  shmem_barrier_all();
  CHECK_EQ_LONG(r[4000], (me + n - 1) % n);
  r = shmem_realloc(r, 8 * sizeof(int)); /* smaller */
  for (int i = 0; i < 8; ++i) CHECK_EQ_LONG(r[i], me * 100 + i);
  shmem_free(r);
  shmem_free(a);
  shmem_free(z);
  /* free then malloc of the same size reuses the block: the allocator is deterministic */
  void *p1 = shmem_malloc(1 << 20);
  shmem_free(p1);
  void *p2 = shmem_malloc(1 << 20);
  CHECK(p1 == p2);
  shmem_free(p2);
  size_t used = 1, avail = 0;
  symmem_heap_usage(&used, &avail);
  CHECK_EQ_LONG(used, 0);
}

/* With an 8 MiB heap (set by the test), 64 MiB cannot fit: NULL on every PE, message says which
 * variable to raise, and the heap still works afterwards. */
static void exhaustion(void) {
  void *big = shmem_malloc((size_t)64 << 20);
  CHECK(big == NULL);
  CHECK(symmem_last_error_code() == SYMMEM_ERR_OUT_OF_MEMORY);
  CHECK(strstr(symmem_last_error(), "SYMMETRIC_SIZE") != NULL);
  void *ok = shmem_malloc(1 << 20);
  CHECK(ok != NULL);
  shmem_free(ok);
}

int main(void) {
  shmem_init();
  same_address_everywhere();
  linked_list_walk();
  allocation_contracts();
  if (getenv("T_HEAP_EXHAUST")) exhaustion();
  if (shmem_my_pe() == 0) printf("t_heap: %d PEs ok\n", shmem_n_pes());
  shmem_finalize();
  return 0;
}
