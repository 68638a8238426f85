/// A subcommand's failure: one line, said as it is.
struct Fail: Error, CustomStringConvertible {
    var description: String
}
