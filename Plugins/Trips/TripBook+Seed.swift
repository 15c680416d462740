extension TripBook {
    /// Three trips, the same at every start: Lisbon by air then rail, Porto by rail, Kyoto by
    /// air then rail. Paris CDG appears in two of them: one `Airport:CDG` record in the cache.
    static func seed(owner: User) -> [Trip] {
        let paris = Endpoint.airport(code: "CDG", name: "Paris Charles de Gaulle")
        let lisbon = Endpoint.airport(code: "LIS", name: "Lisbon Humberto Delgado")
        let kansai = Endpoint.airport(code: "KIX", name: "Kansai International")
        let oriente = Endpoint.station(id: "st-oriente", name: "Lisboa Oriente", platform: "4")
        let sintra = Endpoint.station(id: "st-sintra", name: "Sintra", platform: nil)
        let santaApolonia = Endpoint.station(id: "st-santa-apolonia", name: "Lisboa Santa Apolónia", platform: "2")
        let campanha = Endpoint.station(id: "st-campanha", name: "Porto Campanhã", platform: "5")
        let kyoto = Endpoint.station(id: "st-kyoto", name: "Kyoto", platform: "30")
        return [
            Trip(
                id: "1", name: "Lisbon", startsOn: "2025-05-02", endsOn: "2025-05-06", owner: owner,
                destination: Destination(city: "Lisbon", country: "Portugal"),
                journeys: [Journey(id: "j1", from: paris, to: lisbon), Journey(id: "j2", from: oriente, to: sintra)],
                reservations: [
                    Reservation(id: "r1", kind: "hotel", confirmation: "LIS-4821"),
                    Reservation(id: "r2", kind: "restaurant", confirmation: nil),
                ]
            ),
            Trip(
                id: "2", name: "Porto", startsOn: "2025-06-12", endsOn: "2025-06-15", owner: owner,
                destination: Destination(city: "Porto", country: "Portugal"),
                journeys: [Journey(id: "j3", from: santaApolonia, to: campanha)],
                reservations: [Reservation(id: "r3", kind: "train", confirmation: "CP-1180")]
            ),
            Trip(
                id: "3", name: "Kyoto", startsOn: "2025-10-01", endsOn: "2025-10-10", owner: owner,
                destination: Destination(city: "Kyoto", country: "Japan"),
                journeys: [Journey(id: "j4", from: paris, to: kansai), Journey(id: "j5", from: kansai, to: kyoto)],
                reservations: [
                    Reservation(id: "r4", kind: "hotel", confirmation: "KYO-7731"),
                    Reservation(id: "r5", kind: "tour", confirmation: nil),
                ]
            ),
        ]
    }
}
