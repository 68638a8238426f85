import CSDL2
import CSDL2TTF
import Synchronization

/// SDL and SDL_ttf are process-wide: one `SDL_Init` state that `SDL_Quit` ends for everyone,
/// and one FreeType library under every face. A display holds a `MediaLibraries` lease for
/// its life, so the first display in a process starts them and only the last one out stops
/// them; two displays (a test suite, a bench's render thread beside a headless kiosk) no
/// longer pull the libraries out from under each other. SDL_ttf's own count is a plain
/// integer, and FreeType asks that face creation and disposal be serialized per library, so
/// both go through the one lock (`faces`). Drawing with a face needs no lock: each display's
/// faces are its own. SDL's hints are process-wide as well, a list that `SDL_Quit` frees:
/// they are set under the same lock, so no display walks that list while the last one out
/// frees it (CI crashed in `strcmp` on a freed hint's name that way, stop 49).
final class MediaLibraries: Sendable {
    /// Displays alive now: SDL and TTF are initialized exactly while it is above zero.
    private static let users = Mutex(0)

    /// One of SDL's hints, as `SDL_SetHintWithPriority` takes it.
    struct Hint {
        let name: String
        let value: String
        /// Over the environment's own (`SDL_HINT_OVERRIDE`); else the normal priority, which
        /// an environment variable of the same name wins over.
        var override = false
    }

    /// Sets `hints`, then starts SDL (video and events) and SDL_ttf if no display holds them
    /// yet. The hints that SDL reads as it starts (the video driver) choose for the first
    /// display only.
    init(hints: [Hint]) throws(RenderError) {
        try Self.users.withLock { (users: inout Int) throws(RenderError) in
            for hint in hints {
                SDL_SetHintWithPriority(hint.name, hint.value, hint.override ? SDL_HINT_OVERRIDE : SDL_HINT_NORMAL)
            }
            if users == 0 {
                guard SDL_Init(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) == 0 else {
                    // SDL_Init keeps only the last driver's reason (often none): ask each one again.
                    throw RenderError(message: Display.noDisplayMessage(Display.eachDriversReason()))
                }
                guard TTF_Init() == 0 else {
                    SDL_Quit()
                    throw RenderError("TTF_Init failed")
                }
            }
            users += 1
        }
    }

    /// The last lease out closes SDL_ttf (FreeType) and SDL. Every face and texture must be
    /// gone by then: a display frees them in its `deinit`, before its stored lease.
    deinit {
        Self.users.withLock { users in
            users -= 1
            if users == 0 {
                TTF_Quit()
                SDL_Quit()
            }
        }
    }

    /// Opens or closes faces (FreeType's `FT_New_Face`/`FT_Done_Face` on the shared library).
    static func faces<T>(_ body: () -> T) -> T {
        users.withLock { _ in body() }
    }
}
