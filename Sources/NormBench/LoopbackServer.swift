import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP server on 127.0.0.1 inside the benchmark's process that answers every request
/// with the same body: the far end of `fetch.10k`. One thread accepts connections and
/// serves them one at a time: it reads the request's head and as much body as its
/// `Content-Length` says, writes the answer with `Connection: close`, and closes.
///
/// ```swift
/// let server = LoopbackServer(body: bytes)   // listening on an ephemeral port
/// let url = server.url                        // http://127.0.0.1:PORT/graphql
/// ```
final class LoopbackServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    /// The answer every request gets: head, then body.
    private let answer: [UInt8]
    private let bodyLength: Int

    init(body: [UInt8]) {
        let listener = Self.streamSocket()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(bound == 0 && listen(listener, 64) == 0, "bench: bind/listen: \(String(cString: strerror(errno)))")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        bodyLength = body.count
        answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/graphql")! }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Self.noSignalOnWrite(connection)
            readRequest(connection)
            Self.send(answer, to: connection)
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }

    /// Reads the request's head and its body (`Content-Length` bytes), and drops them.
    private func readRequest(_ connection: Int32) {
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 16_384)
        var headEnd: Int?, expected = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            received += buffer[0..<count]
            if headEnd == nil, let end = Self.range(of: [13, 10, 13, 10], in: received) {
                headEnd = end
                let head = String(decoding: received[0..<end], as: UTF8.self).lowercased()
                if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
                    expected = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let headEnd, received.count - headEnd - 4 >= expected { return }
        }
    }

    private static func range(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) { return start }
        return nil
    }
}

extension LoopbackServer {
    /// Posts `body` to the server over a new connection, as the baseline's plain HTTP
    /// client: the request written, the whole answer read until the server closes.
    /// Returns how many bytes of body came (the answer less its head).
    func rawTransfer(posting body: [UInt8]) -> Int {
        let connection = Self.streamSocket()
        defer { close(connection) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(connected == 0, "bench: connect: \(String(cString: strerror(errno)))")
        let request = Array(("POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Accept: application/json\r\nContent-Length: \(body.count)\r\n\r\n").utf8) + body
        Self.send(request, to: connection)
        var answer: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65_536)
        answer.reserveCapacity(self.answer.count)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return answer.count - (self.answer.count - bodyLength)
    }

    /// A new TCP socket whose writes never raise SIGPIPE.
    private static func streamSocket() -> Int32 {
        #if canImport(Glibc)
        let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let connection = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        precondition(connection >= 0, "bench: socket: \(String(cString: strerror(errno)))")
        noSignalOnWrite(connection)
        return connection
    }

    /// A write to a connection the far end closed fails with EPIPE instead of raising
    /// SIGPIPE, which would end the process: on Linux each `send` says so (MSG_NOSIGNAL),
    /// on Darwin the socket does (SO_NOSIGPIPE, set on every socket, accepted ones too).
    private static func noSignalOnWrite(_ connection: Int32) {
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Writes all of `bytes` to `connection`, or as much as it takes before it fails.
    private static func send(_ bytes: [UInt8], to connection: Int32) {
        bytes.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                #if canImport(Glibc)
                let written = Glibc.send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                #else
                let written = Darwin.send(connection, bytes.baseAddress! + sent, bytes.count - sent, 0)
                #endif
                if written <= 0 { break }
                sent += written
            }
        }
    }
}
