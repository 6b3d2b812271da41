// The types the clients and the domain both speak of: a design's documents, the bounds on reading one, the hosts a
// design or file may come from, a design and the files fetched for it, what a use case knows of its request and where
// it writes what it did. This module imports nothing, so that clients can share these types without reaching into
// the domain.

/** One document of a design (Deckhand's envelope: schema, metadata, data). */
export interface DesignDocument {
  schema: string
  metadata: {
    schema?: string
    name: string
    layeringDefinition?: { abstract?: boolean, layer?: string }
    storagePolicy?: string
    [key: string]: unknown
  }
  data: unknown
}

/** How much of a design is read before it is refused. */
export interface DesignLimits {
  /** Most documents in one design, empty ones included. */
  maxDocuments: number
  /** Most YAML tokens (scalars, indicators, blanks, line breaks, comments) read from one design. */
  maxTokens: number
}

/** The design hosts of this service (or its file hosts): whether a URL names one of them. */
export interface DesignHosts {
  /** True when `url` (http or https) is on one of the hosts, port included. */
  allows: (url: URL) => boolean
}

/**
 * One fetched HostSystem file: its bytes in memory (a file the cache holds), or its size and a way to read it a chunk at
 * a time (a file kept on disk for the join), so that a join never needs all its files in memory at once.
 */
export type FileBody = Buffer | { size: number, read: () => AsyncIterable<Buffer> }

/** Files fetched from HostSystem `url` and `tar_url` sources, by URL (fetched before the payload is made). */
export type RemoteFiles = ReadonlyMap<string, FileBody>

/** The files one join fetched, and the end of its hold on them (files kept on disk removed, cached ones let go). */
export interface FetchedFiles {
  files: RemoteFiles
  release: () => Promise<void>
}

/** A design as fetched, before it is read: its YAML text, and whether the store rendered it already. */
export interface FetchedDesign {
  text: string
  /** True for a deckhand+ reference: the store's rendered documents, layered and substituted there. */
  rendered: boolean
}

/** What a use case knows of the request it serves: what goes on with the calls it makes, and the caller's token. */
export interface CallerContext {
  /** Forwarded as `X-Context-Marker`. */
  contextMarker?: string | undefined
  /** Forwarded as `X-End-User`. */
  user?: string | null | undefined
  /** The caller's own token: the store is read with it when the service has none of its own. */
  token?: string | undefined
}

/** Where a use case writes what it did or what went wrong (the request's logger). */
export interface Log {
  info: (details: Record<string, unknown>, message: string) => void
  error: (details: Record<string, unknown>, message: string) => void
}
