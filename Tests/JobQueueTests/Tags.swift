import Testing

extension Tag {
    /// Pure tests: no Postgres, no child process, no server; the fast tier (`.ci/fast`).
    @Tag static var pure: Self
}
