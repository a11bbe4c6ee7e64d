import { useState } from 'react';

/**
 * The two dialogs of an admin list page: the editor (a new row, or one to change) and the delete
 * confirmation. `refresh` reloads the list after a save or a deletion; a refused deletion is told
 * by the API client, and the confirmation closes either way.
 */
export function useRowDialogs<T>({
  refresh,
  remove,
}: {
  refresh: () => unknown;
  remove: (row: T) => Promise<void>;
}) {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  return {
    createNew: () => setEditing('new'),
    edit: (row: T) => setEditing(row),
    askDelete: (row: T) => setDeleting(row),
    /** The row the editor changes; null while it creates one. */
    editorRow: editing === 'new' ? null : editing,
    /** Spread on the editor dialog. */
    editor: {
      open: editing !== null,
      onClose: () => setEditing(null),
      onSaved: () => {
        setEditing(null);
        void refresh();
      },
    },
    deleting,
    /** Spread on the `ConfirmDialog` of the deletion. */
    confirm: {
      open: deleting !== null,
      onCancel: () => setDeleting(null),
      onConfirm: async () => {
        if (!deleting) return;
        try {
          await remove(deleting);
          void refresh();
        } catch {
          // shown by the API client
        }
        setDeleting(null);
      },
    },
  };
}
