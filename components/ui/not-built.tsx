/** An honest panel for an area of docs/api.md whose screens are not built yet. */
export function NotBuilt({ area, arrivesWith }: { area: string; arrivesWith: string }) {
  return (
    <section className="panel panel-muted" data-testid="not-built" aria-label={`${area}: not built yet`}>
      <p>
        Not built yet: {area} arrives with {arrivesWith}.
      </p>
    </section>
  );
}
