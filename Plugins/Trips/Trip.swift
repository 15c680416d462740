/// A trip as the trips server keeps it; `object` is what the endpoint's fields read.
struct Trip: Sendable {
    let id: String
    var name: String
    var startsOn: String?
    var endsOn: String?
    var owner: User
    var destination: Destination?
    var journeys: [Journey] = []
    var reservations: [Reservation] = []

    var object: [String: any Sendable] {
        var object: [String: any Sendable] = [
            "id": id, "name": name, "owner": owner.object,
            "journeys": journeys.map(\.object), "reservations": reservations.map(\.object),
        ]
        object["startsOn"] = startsOn
        object["endsOn"] = endsOn
        object["destination"] = destination?.object
        return object
    }
}

struct User: Sendable {
    let id: String
    let name: String

    var object: [String: any Sendable] { ["id": id, "name": name] }
}

struct Destination: Sendable {
    let city: String
    let country: String

    var object: [String: any Sendable] { ["city": city, "country": country] }
}

struct Journey: Sendable {
    let id: String
    let from: Endpoint
    let to: Endpoint

    var object: [String: any Sendable] { ["id": id, "from": from.object, "to": to.object] }
}

/// Where a journey starts or ends: a member of the `JourneyEndpoint` union, so its object
/// says which in `__typename`.
enum Endpoint: Sendable {
    case station(id: String, name: String, platform: String?)
    case airport(code: String, name: String)

    var object: [String: any Sendable] {
        switch self {
        case .station(let id, let name, let platform):
            var object: [String: any Sendable] = ["__typename": "Station", "id": id, "name": name]
            object["platform"] = platform
            return object
        case .airport(let code, let name):
            return ["__typename": "Airport", "code": code, "name": name]
        }
    }
}

struct Reservation: Sendable {
    let id: String
    let kind: String
    let confirmation: String?

    var object: [String: any Sendable] {
        var object: [String: any Sendable] = ["id": id, "kind": kind]
        object["confirmation"] = confirmation
        return object
    }
}
