// The kiosk's own scanout on a console (KMSScanout): libdrm (2.4.114 in Debian 12 and
// Raspberry Pi OS bookworm) for mode setting and dumb buffers, and the kernel's netlink
// header for the uevents that announce a panel plugged or unplugged.
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <linux/netlink.h>
