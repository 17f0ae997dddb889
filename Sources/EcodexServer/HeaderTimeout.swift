import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client has not sent a whole request head within `limit`
/// of connecting or of its previous answer. Hummingbird's idle timeout only counts
/// decoded parts, so without this a client sending headers a byte at a time holds a
/// connection open for as long as it likes.
final class HeaderTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Requests whose head arrived and whose answer has not ended.
    private var open = 0

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            open += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        // Counted from when the answer has left, so a slow reader of a large pack keeps its tail.
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { [self] _ in
            open = max(0, open - 1)
            if open == 0 { arm(context) }
        }
        written.futureResult.cascade(to: promise)
        context.write(data, promise: written)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil, context.channel.isActive else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { [self] in
            deadline = nil
            if open == 0 { context.close(promise: nil) }
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
