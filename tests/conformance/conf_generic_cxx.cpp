// conf_generic as C++: the same calls resolve to the overloads of <shmem/generic.h>.
#include "conf_generic.c"
