// libqrencode (Debian 12: 4.1): QR codes for the kiosk's "Add a phone" screen and summary.
#include <qrencode.h>
