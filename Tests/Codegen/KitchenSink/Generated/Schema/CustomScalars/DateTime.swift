// Written once by normcache codegen, and yours from then on: replace the alias with a type of
// your own that conforms to NormAPI.CustomScalarType. Codegen never rewrites this file.

import NormAPI

extension SinkSchema {
    /// A moment, ISO 8601.
    public typealias DateTime = String
}
