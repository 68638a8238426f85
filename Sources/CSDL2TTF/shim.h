// SDL2_ttf (Debian 12: 2.20): TrueType text rendered to SDL surfaces.
#include <SDL_ttf.h>
