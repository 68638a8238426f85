// zlib: deflate for the PNG snapshots the kiosk writes in headless mode.
#include <zlib.h>
