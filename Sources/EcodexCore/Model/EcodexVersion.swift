/// The program's own version, shown by `--version` and sent with opt-in telemetry.
public enum EcodexVersion {
    public static let program = "0.9.0"
}
