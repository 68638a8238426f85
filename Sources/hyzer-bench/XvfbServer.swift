import Subprocess
import SystemPackage

/// A throwaway Xvfb for the idle measurement. Its `Subprocess.run` lives in a task;
/// cancelling that task makes swift-subprocess SIGKILL the server (nothing to save) and reap it.
struct XvfbServer {
    let task: Task<Void, any Error>

    static func start(display: String) async throws -> XvfbServer {
        let task = Task {
            _ = try await Subprocess.run(
                .path("/usr/bin/Xvfb"), arguments: [display, "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                output: .discarded, error: .discarded)
        }
        try await Task.sleep(for: .seconds(1))  // as before: ready within a second
        return XvfbServer(task: task)
    }

    /// Kills the server and waits until it is gone.
    func stop() async {
        task.cancel()
        _ = await task.result
    }
}
