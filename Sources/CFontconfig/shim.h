// fontconfig (Debian 12: 2.14): finds an installed face that has the glyphs the bundled
// fonts lack, the way desktop toolkits pick fallback fonts.
#include <fontconfig/fontconfig.h>
