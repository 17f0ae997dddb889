/// The name of an error's case (`damaged` for `StoreError.damaged(…)`), for tests that check
/// which case was thrown without spelling out its paths and details.
func caseName(_ error: Any?) -> String? {
    guard let error else { return nil }
    return Mirror(reflecting: error).children.first?.label ?? "\(error)"
}
