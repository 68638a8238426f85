// SDL2 (Debian 12: 2.26). The kiosk uses video, events, the renderer API and
// SDL_RenderGeometry (2.0.18+) for rounded shapes.
#include <SDL.h>
