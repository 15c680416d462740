/// GraphQL's `ID`: a string, however the server sends it.
public typealias ID = String

/// What a custom scalar's Swift type conforms to. Codegen writes each custom scalar of the
/// schema as `public typealias DateTime = String` once, in a file it never overwrites: a
/// team replaces the alias with a type of its own that decodes and encodes itself.
///
/// ```swift
/// public struct DateTime: CustomScalarType { ... }   // in Schema/CustomScalars/DateTime.swift
/// ```
public typealias CustomScalarType = ResponseDecodable & ResponseEncodable & Hashable
