import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useImport } from '../features/import-mapping/import-context';

function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/** The whole window accepts a dropped sheet; dropping starts an import wherever the user is. */
export function DropZone({ children }: { children: ReactNode }) {
  const { importFile, state } = useImport();
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  const onDragEnter = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragLeave = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = state.status === 'importing' ? 'none' : 'copy';
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    const file = event.dataTransfer?.files?.[0];
    if (file && state.status !== 'importing') void importFile(file);
  };

  return (
    <div className="app" data-testid="drop-zone" onDragEnter={onDragEnter} onDragLeave={onDragLeave} onDragOver={onDragOver} onDrop={onDrop}>
      {children}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-overlay__box">Drop the file to start a new project</div>
        </div>
      )}
    </div>
  );
}
