export default function Screen() {
  return (
    <section>
      <h1>Webhooks</h1>
    </section>
  );
}
