import NormPluginKit

// The operations of the PURL views, each beside the view it serves.

/// The fields every PURL view shows.
enum PurlRowView {
    static let fragment = NamedFragment("fragment PurlRow on PURL { address name url title }")
}

/// The first page of an address's PURLs: what a list view watches.
enum PurlListView {
    static let query = NamedOperation("""
        query PurlList($address: String!) { purls(address: $address, page: 1) { items { ...PurlRow } nextPage } }
        """, fragments: [PurlRowView.fragment])

    /// Any page: what ``PurlRepository/fetch(address:)`` runs page after page.
    static let page = NamedOperation("""
        query PurlListPage($address: String!, $page: Int!) { purls(address: $address, page: $page) { items { ...PurlRow } nextPage } }
        """, fragments: [PurlRowView.fragment])
}

/// The changes the PURL commands make.
enum PurlMutations {
    static let create = NamedOperation("""
        mutation CreatePurl($address: String!, $name: String!, $url: String!) {
          createPurl(address: $address, name: $name, url: $url) { __typename ...PurlRow }
        }
        """, fragments: [PurlRowView.fragment])

    static let delete = NamedOperation("""
        mutation DeletePurl($address: String!, $name: String!) { deletePurl(address: $address, name: $name) }
        """)
}
