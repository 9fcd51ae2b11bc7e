/* symmem: the legacy include path of older OpenSHMEM programs (Cray SHMEM, SGI). */
#include "../shmemx.h"
