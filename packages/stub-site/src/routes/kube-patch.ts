// The patch types the stand-in's Kubernetes API takes, read from a request's Content-Type.
import type { PatchKind } from '../domain/labels.ts'

export const PATCH_TYPES: Record<string, PatchKind> = {
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic'
}

export function patchKind (contentType: string | undefined): PatchKind | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return PATCH_TYPES[mediaType]
}
