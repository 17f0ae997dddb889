import Foundation

/// A date without a time of day (`2027-01-15`): the day a region rule changes, or the day
/// a scan is judged on. Written as ISO 8601 in packs and on the command line.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Parses exactly `YYYY-MM-DD` with a day that exists in that month; nil otherwise.
    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D else { return nil }
        func number(_ r: Range<Int>) -> Int? {
            var n = 0
            for i in r {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
              y >= 1900, (1...12).contains(m), d >= 1, d <= Self.days(inMonth: m, of: y) else { return nil }
        (year, month, day) = (y, m, d)
    }

    /// Today in the computer's time zone; `now` is injectable for tests.
    public static func today(now: Date = Date(), timeZone: TimeZone = .current) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        let text = String(format: "%04d-%02d-%02d", c.year ?? 2000, c.month ?? 1, c.day ?? 1)
        return CalendarDay(text) ?? CalendarDay("2000-01-01")!
    }

    /// `2027-01-15`.
    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// How a shopper's line writes it: `15 Jan 2027`.
    public var spoken: String {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(day) \(names[month - 1]) \(year)"
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    private static func days(inMonth m: Int, of y: Int) -> Int {
        switch m {
        case 2: (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
