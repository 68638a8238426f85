// libgpiod v1 (1.6.x), as shipped by Debian 12 and Raspberry Pi OS bookworm.
#include <gpiod.h>
