// glibc's allocator controls (mallopt, malloc_info), which Swift's Glibc module leaves out.
#include <malloc.h>
#include <stdio.h>
